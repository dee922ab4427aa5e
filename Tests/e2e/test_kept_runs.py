"""Kept runs first-class (issue #72): a run kept under the title the learner wrote, opened from its
/s/ link alone in a fresh browser (no live session anywhere), turned into marbles and compared with
another kept run by its link; the marbles start at the first event, not after 5 s of idle frames,
and fit the panel's width. Hostile titles are refused, or kept exactly and shown as text.

Hand-worked with the tests' timings (--throttle-ms 150 --service-latency-ms 200), each run 5 s idle
first: "Jav" at 5000 ms, "Java" 250 ms later in one run and 400 ms later in the other. The rows of
a run this long are in frames of 50 ms: both keystrokes fall on a frame, and no event of the rows
run again comes at the very instant of another (as "Java" at 180 ms, in the 200 ms frame, would be
throttled through as "Jav"'s search answers)."""
import json

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from conftest import new_browser
from test_lessons import axe_clean
from test_page import DESKTOP, PHONE, check_console, check_layout, wait

JSON = {"Content-Type": "application/json"}
HOSTILE = '<img src=x onerror="window.pwned=1"><b>Mine</b> & «yours» 🐢'


def kept_search(server, gap, title=None, idle=5000):
    """A virtual-clock search session, `idle` ms of nothing, then "Jav" and "Java" `gap` ms apart,
    kept once Java's results came (events, not sleeps); answers the link."""
    status, created = server.json("POST", "/api/scenarios/search/sessions?clock=virtual")
    assert status == 201, created
    session = created["session"]
    watch = server.watch(f"/api/sessions/{session}/events?since=0")
    for name, value in (("advance", idle), ("query", "Jav"), ("advance", gap), ("query", "Java"), ("advance", 1000)):
        server.send(session, name, str(value))
    # Java's results: throttled through 150 ms after it came, answered 200 ms later.
    watch.wait_for(lambda events: any(e.get("event") == "results" and e["json"].get("t", 0) >= idle + gap + 350 for e in events), timeout=10)
    watch.close()
    body = json.dumps({"title": title}) if title is not None else ""
    status, link = server.json("POST", f"/api/sessions/{session}/recording", body, JSON)
    assert status == 201, link
    return link


def why(browser):
    return browser.find_element(By.ID, "run-rows-why").text


def names_shown(browser):
    """The runs' titles the panel names, as text."""
    return [q.text for q in browser.find_elements(By.CSS_SELECTOR, "#run-rows-which q.run-title")]


def lanes_box(browser):
    return browser.execute_script("const b = document.querySelector('#run-rows .lesson-lanes').getBoundingClientRect(); return [b.left, b.right];")


def marble_left(browser, symbol):
    return browser.find_element(By.CSS_SELECTOR, f'#run-rows .gallery-marble[data-symbol="{symbol}"]').rect["x"]


def test_two_kept_runs_are_compared_from_their_links_alone(playground, tmp_path):
    fast = kept_search(playground, 250, "Typed fast <b>1</b>")
    slow = kept_search(playground, 400, "Typed slowly — 🐢")
    browser = new_browser()  # no storage, no cookies, no session of its own
    try:
        browser.set_window_size(*DESKTOP)
        browser.get(f"{playground.url}{fast['url']}")
        wait(browser, lambda: browser.find_element(By.ID, "connection").text.startswith("Replay:"))
        title = browser.find_element(By.ID, "scenario-title")
        assert title.text == "Typed fast <b>1</b>" and not title.find_elements(By.CSS_SELECTOR, "b"), "a title is text"
        assert not browser.find_element(By.ID, "keep-run-form").is_displayed(), "a kept run is kept already"
        assert browser.find_element(By.ID, "run-rows-open").is_displayed()

        # Compare: the panel opens on this run, its field focused for the other's link.
        browser.find_element(By.ID, "run-compare-open").click()
        wait(browser, lambda: why(browser) == "This run gives the recorded run's events (within a frame).")
        assert browser.switch_to.active_element.get_attribute("id") == "run-compare-link"
        field = browser.find_element(By.ID, "run-compare-link")
        field.send_keys(f"{playground.url}{slow['url']}")
        field.submit()
        wait(browser, lambda: why(browser) == "Why is this different? The first input that differs is query's Java: "
                                              "at 5400 ms in the other run, at 5250 ms in the recorded one.")
        assert names_shown(browser) == ["Typed fast <b>1</b>", "Typed slowly — 🐢"]
        outputs = {lane.get_attribute("data-run") for lane in browser.find_elements(By.CSS_SELECTOR, '#run-rows-outputs [data-stream="results"] svg[data-run]')}
        assert outputs == {"recorded", "other"}, "both runs drawn"
        words = browser.find_element(By.CSS_SELECTOR, '#run-rows-outputs [data-stream="throttled"] .run-rows-words').text
        assert words == "Java moved from 5400 ms to 5550 ms", words  # the session's times, not shifted

        # The 5 s idle lead-in is not drawn, and the panel says from when it draws.
        assert browser.find_element(By.ID, "run-rows-from").text.startswith("From 5.0 s: the 5.0 s before the first event were idle")
        left, right = lanes_box(browser)
        assert 0 <= marble_left(browser, "a") - left < 40, "Jav's marble is where the lanes start, not 3,000 px on"
        row = browser.find_element(By.ID, "run-row-query").get_attribute("value")
        assert row.startswith("-" * 100 + "a"), f"the row's notation still starts at 0 ms: {row}"
        check_layout(browser, "kept-runs-compare", DESKTOP)
        browser.save_screenshot(str(tmp_path / "kept-runs-compare-1280px.png"))

        # Fit: the whole run in the panel's width, no scrolling sideways.
        browser.find_element(By.ID, "run-rows-fit").click()
        assert browser.find_element(By.ID, "run-rows-fit").get_attribute("aria-pressed") == "true"
        lanes = browser.find_element(By.CSS_SELECTOR, "#run-rows .lesson-lanes")
        assert browser.execute_script("return arguments[0].scrollWidth <= arguments[0].clientWidth + 1", lanes)
        rings = browser.find_elements(By.CSS_SELECTOR, '#run-rows-outputs [data-stream="results"] circle.gallery-differs')
        assert rings and all(left <= ring.rect["x"] and ring.rect["x"] + ring.rect["width"] <= right for ring in rings)

        # On a phone the fitted run is drawn smaller (fitted again as the window changes), and a
        # marble dragged there lands in the frame it is dropped on: 5 frames of 50 ms later.
        browser.set_window_size(*PHONE)
        lane = browser.find_element(By.CSS_SELECTOR, "#run-rows .gallery-lane")
        scale = lambda: browser.execute_script(  # noqa: E731
            "const l = arguments[0]; return l.getBoundingClientRect().width / l.viewBox.baseVal.width;", lane)
        wait(browser, lambda: scale() < 0.9)
        assert browser.execute_script("return arguments[0].scrollWidth <= arguments[0].clientWidth + 1", lanes)
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", lane)
        before = browser.find_element(By.ID, "run-row-query").get_attribute("value").index("b")
        marble = browser.find_element(By.CSS_SELECTOR, '#run-rows .gallery-marble[data-symbol="b"]')
        ActionChains(browser).click_and_hold(marble).move_by_offset(round(5 * 30 * scale()), 0).release().perform()
        wait(browser, lambda: browser.find_element(By.ID, "run-row-query").get_attribute("value").index("b") == before + 5)

        # Turn into marbles: the kept run's rows run again, the run named by its title.
        browser.set_window_size(*DESKTOP)
        browser.find_element(By.ID, "run-rows-open").click()
        wait(browser, lambda: why(browser) == "This run gives the recorded run's events (within a frame).")
        assert names_shown(browser) == ["Typed fast <b>1</b>"]
        assert browser.find_element(By.ID, "run-row-query").get_attribute("value").index("b") == before, "opened again, as recorded"
        axe_clean(browser)
        for size in (DESKTOP, PHONE):
            check_layout(browser, "kept-runs-marbles", size)
            browser.set_window_size(*size)
            browser.save_screenshot(str(tmp_path / f"kept-runs-marbles-{size[0]}px.png"))
        print(f"screenshots: {sorted(str(path) for path in tmp_path.glob('*.png'))}")
        assert not browser.execute_script("return window.pwned")
        check_console(browser)
    finally:
        browser.quit()


def test_a_title_is_asked_for_when_keeping_and_shown_as_text(browser, playground, tmp_path):
    status, created = playground.json("POST", "/api/scenarios/search/sessions?clock=virtual")
    session = created["session"]
    browser.set_window_size(*DESKTOP)
    browser.get(f"{playground.url}/#session={session}")
    field = browser.find_element(By.ID, "keep-run-title")
    wait(browser, lambda: field.get_attribute("value") == "A run of Throttled search")
    status_text = lambda: browser.find_element(By.ID, "kept-run").text  # noqa: E731

    # Refused, said in the server's words, nothing kept.
    for title, says in (("x" * 201, "title is at most 200 characters; this one is 201."),
                        ("a\u0007b", "title holds a control character (U+0007) at character 2; a title is one line of text.")):
        browser.execute_script("arguments[0].value = arguments[1]", field, title)
        browser.find_element(By.ID, "keep-run").click()
        wait(browser, lambda: status_text() == f"Not kept: {says}")
    # The refusals are the console's only errors: the browser logs each 400.
    errors = [entry["message"] for entry in browser.get_log("browser") if entry["level"] in ("SEVERE", "ERROR")]
    assert len(errors) == 2 and all("/recording" in error and "400" in error for error in errors), errors

    field.clear()
    field.send_keys(HOSTILE)
    browser.find_element(By.ID, "keep-run").click()
    wait(browser, lambda: status_text().startswith("Kept "))
    shown = browser.find_element(By.CSS_SELECTOR, "#kept-run q.kept-run-title")
    assert shown.text == HOSTILE and not browser.find_elements(By.CSS_SELECTOR, "#kept-run img, #kept-run b")
    url = browser.find_element(By.CSS_SELECTOR, "#kept-run a").get_attribute("href")
    status, link = playground.json("GET", "/api/links/" + url.rsplit("/", 1)[1])
    assert link["title"] == HOSTILE, "read back exactly"
    for size in (DESKTOP, PHONE):
        check_layout(browser, "kept-run-title", size)
        browser.set_window_size(*size)
        browser.save_screenshot(str(tmp_path / f"kept-run-title-{size[0]}px.png"))
    browser.set_window_size(*DESKTOP)

    # Kept with the field untouched: the default, as the server would give it.
    browser.get("about:blank")
    browser.get(f"{playground.url}/#session={session}")
    field = browser.find_element(By.ID, "keep-run-title")
    wait(browser, lambda: field.get_attribute("value") == "A run of Throttled search")
    browser.find_element(By.ID, "keep-run").click()
    wait(browser, lambda: status_text().startswith("Kept "))
    assert browser.find_element(By.CSS_SELECTOR, "#kept-run q.kept-run-title").text == "A run of Throttled search"

    # Opened by its link, the hostile title is the page's heading, as text.
    browser.get(f"{playground.url}{link['url']}")
    wait(browser, lambda: browser.find_element(By.ID, "connection").text.startswith("Replay:"))
    heading = browser.find_element(By.ID, "scenario-title")
    assert heading.text == HOSTILE and not heading.find_elements(By.CSS_SELECTOR, "img, b")
    assert not browser.execute_script("return window.pwned")
    check_console(browser)


def test_hostile_titles_are_refused_or_kept_exactly(playground):
    status, created = playground.json("POST", "/api/scenarios/search/sessions?clock=virtual")
    session = created["session"]
    path = f"/api/sessions/{session}/recording"
    codes = set(json.loads(playground.get("/openapi.json")[2])["components"]["schemas"]["Error"]["properties"]["error"]["properties"]["code"]["enum"])
    for title in ("🚀" * 200, "שלום <script>", "a  b", "\u202eevil", "e\u0301"):
        status, link = playground.json("POST", path, json.dumps({"title": title}), JSON)
        assert status in (200, 201) and link["title"] == title, (title, link)
        assert playground.json("GET", f"/api/links/{link['id']}")[1]["title"] == title
    for title, says in (("🚀" * 201, "at most 800 bytes of UTF-8; this one is 804"), ("x" * 201, "at most 200 characters"),
                        ("\u0000", "(U+0000)"), ("line\nbreak", "(U+000A)"), ("a\u2028b", "(U+2028)"), ("\u009b31m", "(U+009B)"),
                        ("", "not blank"), (" \t", "(U+0009)"), ("   ", "not blank"), (" padded ", "begins or ends with a space"), (7, "is a string")):
        status, answer = playground.json("POST", path, json.dumps({"title": title}), JSON)
        error = answer["error"]
        assert (status, error["code"]) == (400, "invalid_value") and says in error["message"], (title, answer)
        assert error["code"] in codes
