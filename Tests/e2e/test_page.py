"""The page in a real browser (headless Chromium): each scenario driven as a person would, the
layout at desktop and phone widths, and an accessibility audit."""
import itertools
import time

import pytest
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from conftest import ARTIFACTS
from diagram_geometry import check_diagram

DESKTOP = (1280, 900)
PHONE = (375, 812)


def latest(browser, stream):
    return browser.find_element(By.CSS_SELECTOR, f'li.stream[data-stream="{stream}"] output.latest').text


def count(browser, stream):
    return int(browser.find_element(By.CSS_SELECTOR, f'li.stream[data-stream="{stream}"] .count').text.split()[0])


def wait(browser, condition, timeout=10):
    # A condition that reads elements the page is re-rendering meanwhile finds them gone; it is
    # polled again, as for an element not there yet.
    return WebDriverWait(browser, timeout, poll_frequency=0.05,
                         ignored_exceptions=(StaleElementReferenceException,)).until(lambda driver: condition())


def open_scenario(browser, playground, scenario, size=DESKTOP):
    browser.set_window_size(*size)
    browser.get("about:blank")
    browser.get_log("browser")  # drop messages of earlier pages
    browser.get(f"{playground.url}/#{scenario}")
    wait(browser, lambda: browser.find_element(By.ID, "connection").text == "Live")
    wait(browser, lambda: "session=" in browser.current_url)


def check_console(browser):
    errors = [entry for entry in browser.get_log("browser") if entry["level"] in ("SEVERE", "ERROR")]
    assert not errors, errors


def check_layout(browser, name, size):
    browser.set_window_size(*size)
    browser.execute_script("window.dispatchEvent(new Event('resize'))")
    scroll = browser.execute_script("return [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert scroll[0] <= scroll[1], f"horizontal scrolling at {size[0]} px: {scroll}"
    too_small = browser.execute_script("""
        const small = [];
        for (const node of document.querySelectorAll('body *')) {
          const text = [...node.childNodes].some(c => c.nodeType === 3 && c.textContent.trim());
          if (!text || node.closest('[hidden]') || node.offsetParent === null) continue;
          const size = parseFloat(getComputedStyle(node).fontSize);
          if (size < 14) small.push(node.tagName + '.' + node.className + ' ' + size);
        }
        return small;""")
    assert not too_small, f"text under 14 px: {too_small[:5]}"
    if browser.find_elements(By.CSS_SELECTOR, ".lanes-svg .glyph"):
        check_diagram(browser)  # no overlapping marbles or labels, labels in their rows, a forward axis
    # The whole page, not just the viewport: grow the window to the document's height.
    height = browser.execute_script("return document.documentElement.scrollHeight")
    browser.set_window_size(size[0], min(height + 120, 6000))
    browser.save_screenshot(str(ARTIFACTS / f"{name}-{size[0]}px.png"))
    browser.set_window_size(*size)


def test_login_enables_sign_in_and_signs_in(browser, playground):
    open_scenario(browser, playground, "login")
    assert latest(browser, "signInEnabled") == "false"
    browser.find_element(By.ID, "input-username").send_keys("user")
    browser.find_element(By.ID, "input-password").send_keys("password")
    wait(browser, lambda: latest(browser, "signInEnabled") == "true")
    assert count(browser, "usernameValid") == 5, "the initial value and one per keystroke, in order"
    browser.find_element(By.ID, "input-submit").click()
    wait(browser, lambda: latest(browser, "signInResult") == "true")
    wait(browser, lambda: latest(browser, "signingIn") == "false")
    check_console(browser)
    for size in (DESKTOP, PHONE):
        check_layout(browser, "login", size)


def test_search_shows_one_throttled_value_then_results(browser, playground):
    open_scenario(browser, playground, "search")
    browser.find_element(By.ID, "input-query").send_keys("swedish")
    wait(browser, lambda: "Swedish" in latest(browser, "results"))
    assert count(browser, "throttled") == 1, "typing quickly gives one throttled value"
    assert latest(browser, "throttled") == "swedish"
    assert count(browser, "validQuery") == 5, "swe, swed, swedi, swedis, swedish"
    check_console(browser)
    for size in (DESKTOP, PHONE):
        check_layout(browser, "search", size)


def test_command_execute_turns_executing_on_and_off(browser, playground):
    open_scenario(browser, playground, "command")
    browser.find_element(By.ID, "input-email").send_keys("me@example.com")
    wait(browser, lambda: latest(browser, "enabled") == "true")
    browser.find_element(By.ID, "input-execute").click()
    wait(browser, lambda: latest(browser, "executing") == "true")
    wait(browser, lambda: latest(browser, "executing") == "false" and count(browser, "executing") == 3)
    assert "subscribed" in latest(browser, "executionValues")
    browser.find_element(By.ID, "input-allowsConcurrentExecution").send_keys(Keys.SPACE)  # keyboard works
    check_console(browser)
    for size in (DESKTOP, PHONE):
        check_layout(browser, "command", size)


def test_two_tabs_on_one_session_link_show_the_same_events(browser, playground):
    open_scenario(browser, playground, "login")
    link = browser.current_url
    first = browser.current_window_handle
    browser.switch_to.new_window("tab")
    browser.get(link)
    wait(browser, lambda: browser.find_element(By.ID, "connection").text == "Live")
    browser.find_element(By.ID, "input-username").send_keys("abcd")  # typed in the second tab
    wait(browser, lambda: latest(browser, "usernameValid") == "true")
    second_tab = latest(browser, "signInEnabled"), count(browser, "usernameValid")
    browser.close()
    browser.switch_to.window(first)
    wait(browser, lambda: latest(browser, "usernameValid") == "true")
    assert (latest(browser, "signInEnabled"), count(browser, "usernameValid")) == second_tab
    check_console(browser)


def test_ended_session_is_explained(browser, playground):
    open_scenario(browser, playground, "ticker")
    session = browser.current_url.split("session=")[1]
    assert playground.request("DELETE", f"/api/sessions/{session}")[0] == 204
    wait(browser, lambda: "ended" in browser.find_element(By.ID, "notice").text)


def fill_with_events(browser, playground, scenario_id, rounds=250):
    """Drives the page's session over the API until the page has shown a few hundred events."""
    session = browser.current_url.split("session=")[1].split("&")[0]
    scenario = next(s for s in playground.json("GET", "/api/scenarios")[1]["scenarios"] if s["id"] == scenario_id)
    for round_index in range(rounds):
        for source in scenario["inputs"]:
            options = source.get("options") or ["a"]
            value = {"text": f"value {round_index}", "action": "", "bool": str(round_index % 2 == 0).lower(),
                     "number": str(round_index)}.get(source["kind"], options[round_index % len(options)])
            playground.request("POST", f"/api/sessions/{session}/inputs/{source['name']}", value,
                               {"Content-Type": "text/plain"})
    wait(browser, lambda: len(browser.find_elements(By.CSS_SELECTOR, "#log > li")) >= 200, timeout=20)


@pytest.mark.parametrize("scenario", ["login", "search", "command", "binding", "multicast", "schedulers"])
def test_accessibility_audit(browser, make_playground, scenario):
    """After a few hundred events, not only on a fresh page: a full, scrolling event log must still
    be reachable by keyboard (axe's scrollable-region-focusable)."""
    from selenium_axe_python import Axe

    playground = make_playground("--inputs-per-second", "100000")
    open_scenario(browser, playground, scenario)
    fill_with_events(browser, playground, scenario)
    axe = Axe(browser)
    axe.inject()
    results = axe.run()
    serious = [v for v in results["violations"] if v["impact"] in ("serious", "critical")]
    assert not serious, [(v["id"], v["help"], [n["target"] for n in v["nodes"]][:3]) for v in serious]


def test_stepping_through_search_on_a_virtual_clock(browser, make_playground):
    playground = make_playground(fast=False)  # the default timings: a 0.5 s throttle, a 1 s search
    browser.set_window_size(*DESKTOP)
    browser.get("about:blank")
    browser.get_log("browser")
    browser.get(f"{playground.url}/#step=search")
    wait(browser, lambda: browser.find_element(By.ID, "connection").text == "Live")
    assert not browser.find_element(By.ID, "clock").get_attribute("hidden")
    browser.find_element(By.ID, "input-query").send_keys("danish")
    wait(browser, lambda: latest(browser, "validQuery") == "danish")
    assert count(browser, "throttled") == 0, "time stands still"
    browser.find_element(By.ID, "advance-100").click()
    wait(browser, lambda: browser.find_element(By.ID, "virtual-time").text == "100 ms")
    assert count(browser, "throttled") == 0, "100 ms is less than the throttle"
    browser.find_element(By.ID, "advance-500").click()
    wait(browser, lambda: latest(browser, "throttled") == "danish")
    # The same virtual instant, a later event on the wire: wait for it rather than race it.
    wait(browser, lambda: latest(browser, "searching") == "true")  # the search takes virtual time too
    browser.find_element(By.ID, "advance-500").click()
    browser.find_element(By.ID, "advance-500").click()
    wait(browser, lambda: "Danish" in latest(browser, "results"))
    wait(browser, lambda: browser.find_element(By.ID, "virtual-time").text == "1600 ms")
    check_console(browser)
    check_layout(browser, "search-virtual", DESKTOP)


def test_search_shows_its_story_in_the_first_screen(browser, make_playground):
    """At 1280×800, after typing "swedish" into the search scenario (its real timings: a 0.5 s
    throttle, a 1 s search), the first screen shows the keystrokes' marbles and the throttled
    value together without zooming: the diagram opens at a window fitted to the scenario's time
    scale (10 s), the source does not squeeze it, and the rows' names are whole. On a phone the
    lanes take the width, the names above them."""
    playground = make_playground(fast=False)
    open_scenario(browser, playground, "search", size=(1280, 800))
    assert browser.find_element(By.ID, "window-size").text == "10 s"
    browser.find_element(By.ID, "input-query").send_keys("swedish")
    wait(browser, lambda: "Swedish" in latest(browser, "results"))
    browser.execute_script("window.scrollTo(0, 0)")
    # Every glyph of the query and throttled rows lies in the viewport and inside the lanes' view.
    boxes = browser.execute_script("""
        const lanes = document.querySelector('.lanes').getBoundingClientRect();
        return ['input:query', 'throttled'].map((name) => [...document.querySelectorAll(`.lanes-svg .glyph[data-stream="${name}"]`)]
          .filter((glyph) => glyph.querySelector('.marble-circle, .stack-count, text'))
          .map((glyph) => { const box = glyph.getBoundingClientRect();
            return {name, left: box.left, right: box.right, top: box.top, bottom: box.bottom,
                    inLanes: box.left >= lanes.left && box.right <= lanes.right,
                    onScreen: box.top >= 0 && box.bottom <= window.innerHeight && box.right <= window.innerWidth}; }));""")
    query, throttled = boxes
    assert query and throttled, boxes
    assert all(box["inLanes"] and box["onScreen"] for box in query + throttled), boxes
    names = browser.execute_script("""return [...document.querySelectorAll('.row-labels .stream')].filter((label) =>
        [...label.querySelectorAll('.stream-name, .stream-operator, .count')].some((node) => node.scrollWidth > node.clientWidth + 1))
        .map((label) => label.dataset.stream)""")
    assert not [name for name in names if name in ("query", "validQuery", "throttled", "searching", "results")], names
    browser.save_screenshot(str(ARTIFACTS / "search-first-screen-1280x800.png"))
    # On a phone the lanes take the diagram's width, each row's name above its lane's marbles.
    browser.set_window_size(*PHONE)
    wait(browser, lambda: browser.execute_script(
        "return document.querySelector('.lanes').clientWidth >= 0.85 * document.querySelector('.diagram').clientWidth"))
    placed = browser.execute_script("""
        return ['throttled', 'results'].map((name) => {
          const label = document.querySelector(`.row-labels .stream[data-stream="${name}"] .row-line`).getBoundingClientRect();
          const marble = [...document.querySelectorAll(`.lanes-svg .glyph[data-stream="${name}"] .marble-circle`)][0].getBoundingClientRect();
          return {name, labelBottom: label.bottom, marbleTop: marble.top, marbleCentre: (marble.top + marble.bottom) / 2};
        });""")
    assert all(item["labelBottom"] <= item["marbleCentre"] for item in placed), placed
    browser.execute_script("document.getElementById('streams-title').scrollIntoView()")
    browser.save_screenshot(str(ARTIFACTS / "search-diagram-375px.png"))
    check_console(browser)


def test_a_refused_step_leaves_the_page_clock_where_the_server_has_it(browser, make_playground):
    """Steps refused by the rate limit (429) once moved the page's clock anyway."""
    playground = make_playground("--inputs-per-second", "50")
    browser.set_window_size(*DESKTOP)
    browser.get("about:blank")
    browser.get_log("browser")
    browser.get(f"{playground.url}/#step=search")
    wait(browser, lambda: browser.find_element(By.ID, "connection").text == "Live")
    session = browser.current_url.split("session=")[1].split("&")[0]
    # 120 steps at once: the first 50 fit the limit's burst, most of the rest are refused.
    browser.execute_script("for (let i = 0; i < 120; i++) document.getElementById('advance-100').click()")
    wait(browser, lambda: browser.find_element(By.ID, "notice").text.startswith("Slow down"), timeout=20)
    # Every step answered (the page sends them one after another; the clock is busy meanwhile).
    wait(browser, lambda: browser.find_element(By.ID, "clock").get_attribute("aria-busy") == "false", timeout=20)
    watcher = playground.watch(f"/api/sessions/{session}/events")
    # The query tells the server's clock: its event is stamped with it. Retried while the limit refills.
    deadline = time.monotonic() + 5
    while playground.request("POST", f"/api/sessions/{session}/inputs/query", "abc",
                             {"Content-Type": "text/plain"})[0] == 429:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    server_time = watcher.wait_for(lambda events: events)[-1]["json"]["t"]
    watcher.close()
    assert 5_000 <= server_time < 12_000, "some steps were accepted, some refused"
    wait(browser, lambda: browser.find_element(By.ID, "virtual-time").text == f"{server_time:.0f} ms")


def test_binding_across_two_browser_windows(browser, playground):
    """Two people on one binding session: each takes a field and sees the other's typing in theirs."""
    open_scenario(browser, playground, "binding")
    link = browser.current_url
    first = browser.current_window_handle
    field = lambda name: browser.find_element(By.ID, f"input-{name}")
    wait(browser, lambda: field("fieldA").get_attribute("value") == "Ada")  # the model wins at binding
    assert field("fieldB").get_attribute("readonly"), "the first window types into field A"
    browser.switch_to.new_window("window")
    browser.get(link)
    wait(browser, lambda: browser.find_element(By.ID, "connection").text == "Live")
    browser.find_element(By.ID, "take-fieldB").click()
    assert field("fieldA").get_attribute("readonly") and not field("fieldB").get_attribute("readonly")
    second = browser.current_window_handle

    browser.switch_to.window(first)
    field("fieldA").send_keys(Keys.CONTROL, "a")
    field("fieldA").send_keys("Grace Hopper")  # typed key by key: many inputs, none may echo back
    wait(browser, lambda: latest(browser, "label") == "Hello, Grace Hopper!")
    assert field("fieldA").get_attribute("value") == "Grace Hopper"
    assert field("fieldB").get_attribute("value") == "Grace Hopper"

    browser.switch_to.window(second)
    wait(browser, lambda: field("fieldB").get_attribute("value") == "Grace Hopper")
    field("fieldB").send_keys(Keys.BACKSPACE * 7)
    wait(browser, lambda: latest(browser, "name") == "Grace")
    assert field("fieldB").get_attribute("value") == "Grace"
    check_console(browser)
    browser.close()

    browser.switch_to.window(first)
    wait(browser, lambda: field("fieldA").get_attribute("value") == "Grace")
    assert latest(browser, "label") == "Hello, Grace!"
    check_console(browser)
    for size in (DESKTOP, PHONE):
        check_layout(browser, "binding", size)


def test_completing_an_input_from_the_page(browser, playground):
    open_scenario(browser, playground, "search")
    browser.find_element(By.ID, "input-query").send_keys("danish")
    wait(browser, lambda: latest(browser, "validQuery") == "danish")
    browser.find_element(By.ID, "complete-query").click()
    wait(browser, lambda: all(latest(browser, s) == "completed"
                              for s in ("validQuery", "throttled", "searching", "results", "cancelled", "errors")))
    assert browser.find_element(By.ID, "input-query").get_attribute("disabled")
    assert browser.find_element(By.ID, "fail-query").get_attribute("disabled")
    assert "completed" in browser.find_element(By.CSS_SELECTOR, ".field-text .input-ended").text
    check_console(browser)


def test_the_page_links_the_sessions_marble_diagrams(browser, playground):
    open_scenario(browser, playground, "ticker")
    session = browser.current_url.split("session=")[1]
    href = browser.find_element(By.ID, "marbles-link").get_attribute("href")
    assert href == f"{playground.url}/api/sessions/{session}/marbles"
    status, _, body = playground.request("GET", f"/api/sessions/{session}/marbles")
    assert status == 200 and "count: " in body.decode()


def test_the_pipelines_source_is_shown_beside_its_streams(browser, playground):
    open_scenario(browser, playground, "login")
    assert browser.find_element(By.ID, "source-path").text == "Sources/Scenarios/Login.swift"
    marked = [line.get_attribute("data-stream") for line in browser.find_elements(By.CSS_SELECTOR, "#source-code .defines")]
    streams = [item.get_attribute("data-stream") for item in browser.find_elements(By.CSS_SELECTOR, "li.stream:not(.input-row)")]
    assert marked == streams, "every named stream's line is marked, in pipeline order"
    # Beside the streams on a wide screen; below them where it would squeeze the diagram (1280 px).
    browser.set_window_size(1700, 900)
    streams_box = browser.find_element(By.ID, "streams").rect
    source_box = browser.find_element(By.CSS_SELECTOR, ".source").rect
    assert source_box["x"] >= streams_box["x"] + streams_box["width"], "beside the streams on a wide screen"
    assert source_box["y"] < streams_box["y"] + streams_box["height"]
    browser.set_window_size(*DESKTOP)
    streams_box = browser.find_element(By.ID, "streams").rect
    source_box = browser.find_element(By.CSS_SELECTOR, ".source").rect
    assert source_box["y"] >= streams_box["y"] + streams_box["height"], "below them at 1280 px"
    browser.set_window_size(*PHONE)
    streams_box = browser.find_element(By.ID, "streams").rect
    source_box = browser.find_element(By.CSS_SELECTOR, ".source").rect
    assert source_box["y"] >= streams_box["y"] + streams_box["height"], "below them on a phone"
    # The search scenario's Swift names some streams on the line after `stream(` (swift-format's
    # line breaks): those lines are marked too.
    open_scenario(browser, playground, "search")
    marked = [line.get_attribute("data-stream") for line in browser.find_elements(By.CSS_SELECTOR, "#source-code .defines")]
    streams = [item.get_attribute("data-stream") for item in browser.find_elements(By.CSS_SELECTOR, "li.stream:not(.input-row)")]
    assert marked == streams
    check_console(browser)


def test_multicast_from_the_page(browser, playground):
    from selenium.webdriver.support.ui import Select

    open_scenario(browser, playground, "multicast")
    Select(browser.find_element(By.ID, "input-mode")).select_by_visible_text("publish")
    wait(browser, lambda: latest(browser, "connection") == "not connected")
    browser.find_element(By.ID, "input-subscribeA").click()
    browser.find_element(By.ID, "input-subscribeB").click()
    wait(browser, lambda: latest(browser, "subscriberB") == "completed" and latest(browser, "subscriberA") == "completed")
    assert latest(browser, "requestsMade") == "1", "publish + autoconnect: one request for both"
    assert latest(browser, "connection") == "disposed"
    check_console(browser)
    for size in (DESKTOP, PHONE):
        check_layout(browser, "multicast", size)


def test_schedulers_from_the_page(browser, playground):
    open_scenario(browser, playground, "schedulers")
    browser.find_element(By.ID, "input-tap").click()
    wait(browser, lambda: "thread: a Dispatch thread of queue" in latest(browser, "deliverOnQueue"))
    assert latest(browser, "source").startswith("tap 1 · ")
    browser.find_element(By.ID, "input-scheduleOnBareThread").click()
    wait(browser, lambda: latest(browser, "bareThread").startswith("still not run"), timeout=5)
    log = browser.find_element(By.ID, "log").text
    assert "the run-loop thread playground.schedulers.run-loop" in log, "the log shows values in full"
    check_console(browser)
    for size in (DESKTOP, PHONE):
        check_layout(browser, "schedulers", size)


def test_an_input_ended_elsewhere_shows_as_ended(browser, playground):
    open_scenario(browser, playground, "search")
    session = browser.current_url.split("session=")[1]
    status, _, _ = playground.request("POST", f"/api/sessions/{session}/inputs/query?event=completed", "")
    assert status == 202
    browser.find_element(By.ID, "input-query").send_keys("x")  # this page learns of it from the 409
    wait(browser, lambda: browser.find_element(By.CSS_SELECTOR, ".field-text .input-ended").text == "ended")
    assert browser.find_element(By.ID, "input-query").get_attribute("disabled")
    assert "completed or failed" in browser.find_element(By.ID, "notice").text
    errors = [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]
    assert all(e["source"] == "network" and "409" in e["message"] for e in errors), errors  # only the refused post


FIRST_VISIBLE_SOURCE_LINE = """
const pre = document.querySelector("pre.source");
const top = pre.getBoundingClientRect().top + parseFloat(getComputedStyle(pre).paddingTop);
const line = [...pre.querySelectorAll(".line")].find((node) => node.getBoundingClientRect().bottom > top + 1);
return line ? [line.className, line.textContent] : null;
"""


@pytest.mark.parametrize("scenario", ["search", "login", "ticker", "multicast"])
def test_the_source_panel_opens_on_the_lines_that_build_the_pipeline(browser, playground, scenario):
    """Not on the imports and the catalogue: the first line in view builds a stage."""
    open_scenario(browser, playground, scenario)
    wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "#source-code .defines"))
    css, text = browser.execute_script(FIRST_VISIBLE_SOURCE_LINE)
    assert "stages.stream(" in text or "stages.watch(" in text, (css, text)
    # The folded lines are one button away, and come back with it.
    unfold = browser.find_element(By.ID, "source-unfold")
    assert unfold.get_attribute("aria-expanded") == "false"
    unfold.click()
    assert "import" in browser.execute_script(FIRST_VISIBLE_SOURCE_LINE)[1]
    check_console(browser)


@pytest.mark.parametrize("scenario", ["login", "search", "command", "binding", "multicast", "schedulers", "ticker"])
def test_on_a_phone_the_diagram_starts_within_a_screen_and_a_half(browser, playground, scenario):
    """At 375 × 812 the first row of the diagram is within 1.5 screen heights of the top: the
    scenarios are one row that scrolls sideways, and the tagline and the link's explanation go."""
    from test_diagram import set_viewport

    set_viewport(browser, 375, 812)
    try:
        open_scenario(browser, playground, scenario, size=PHONE)
        wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "#streams li"))
        top = browser.execute_script("return document.querySelector('#streams li').getBoundingClientRect().top + window.scrollY")
        assert top <= 1.5 * 812, f"{scenario}: the diagram starts {top:.0f} px down"
        # The current scenario is in view in its row.
        shown = browser.execute_script(
            "const l = document.querySelector('.scenario-link[aria-current]').getBoundingClientRect();"
            "return l.left >= 0 && l.right <= window.innerWidth")
        assert shown, f"{scenario}: its tab is scrolled out of view"
        browser.save_screenshot(str(ARTIFACTS / f"phone-{scenario}-375px.png"))
        check_console(browser)
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_the_first_screen_offers_three_doors_the_course_first(browser, playground):
    """A newcomer's first screen: learn (the course), watch (a scenario), write (the editor), in that
    order, the course's door first by keyboard too; each door opens what it says."""
    browser.set_window_size(*DESKTOP)
    browser.get(f"{playground.url}/")
    wait(browser, lambda: browser.find_element(By.ID, "intro").is_displayed())
    doors = browser.find_elements(By.CSS_SELECTOR, "#intro .door")
    assert [door.get_attribute("id") for door in doors] == ["door-learn", "door-watch", "door-write"]
    assert [door.find_element(By.TAG_NAME, "strong").text for door in doors] == ["Learn", "Watch", "Write"]
    first, second = doors[0].rect, doors[1].rect
    assert (first["y"], first["x"]) <= (second["y"], second["x"]), "the course's door comes first on screen"
    check_layout(browser, "first-screen", DESKTOP)
    check_layout(browser, "first-screen", PHONE)
    browser.set_window_size(*DESKTOP)
    # By keyboard: the doors come in their order, and Enter on the first opens the course.
    order = browser.execute_script("""
        const doors = [...document.querySelectorAll('#intro .door')];
        const focusable = [...document.querySelectorAll('a[href], button, input, select, textarea, [tabindex]')]
          .filter((node) => node.tabIndex >= 0 && node.offsetParent !== null);
        return doors.map((door) => focusable.indexOf(door));""")
    assert order == sorted(order) and order[0] >= 0, order
    doors[0].send_keys(Keys.ENTER)
    wait(browser, lambda: browser.current_url.endswith("#learn"))
    wait(browser, lambda: not browser.find_element(By.ID, "intro").is_displayed())
    browser.get(f"{playground.url}/")
    wait(browser, lambda: browser.find_element(By.ID, "door-watch").is_displayed())
    browser.find_element(By.ID, "door-watch").click()
    wait(browser, lambda: browser.find_element(By.ID, "connection").text == "Live")
    browser.get(f"{playground.url}/")
    wait(browser, lambda: browser.find_element(By.ID, "door-write").is_displayed())
    browser.find_element(By.ID, "door-write").click()
    wait(browser, lambda: browser.find_element(By.ID, "program").is_displayed())
    check_console(browser)
