"""The operator gallery's entries (Public/gallery/entries.json): each expected output, written by
hand from RAC 2.x's semantics, is what POST /api/marbles computes with the real operator."""
import json

import pytest

from conftest import ROOT

GALLERY = json.loads((ROOT / "Public/gallery/entries.json").read_text())
ENTRIES = [entry for group in GALLERY["groups"] for entry in group["entries"]]


def program(entry):
    """The entry's program with each input row, `@NAME`, as a cold marbles(…) source with the
    row's letter values and nested diagrams (as the page builds it: Public/operators/gallery.js)."""
    text = entry["program"]
    for row in entry["inputs"]:
        nested = "".join(f', {letter}: marbles("{inner}")' for letter, inner in row.get("nested", {}).items())
        values = "".join(f", {letter}: {json.dumps(value)}" for letter, value in row.get("values", {}).items())
        text = text.replace(f'@{row["name"]}', f'marbles("{row["marbles"]}"{values}{nested})')
    return text + "\n"


@pytest.fixture(scope="module")
def server(request):
    from conftest import start_server
    playground = start_server(request, "--marble-runs-per-second", "10000")
    yield playground
    playground.stop()


def test_every_entry_has_a_unique_id_and_the_names_a_search_needs():
    ids = [entry["id"] for entry in ENTRIES]
    assert len(ids) == len(set(ids))
    for entry in ENTRIES:
        for field in ("name", "rac", "reactiveSwift", "rxSwift", "rxjs", "combine", "explanation", "inputs", "program", "expected"):
            assert entry.get(field) not in (None, ""), (entry["id"], field)


def test_operators_md_links_every_entry_and_no_missing_one():
    import re
    linked = set(re.findall(r"#gallery/([A-Za-z]+)\)", (ROOT / "docs/OPERATORS.md").read_text()))
    ids = {entry["id"] for entry in ENTRIES}
    assert linked <= ids, f"links to no entry: {sorted(linked - ids)}"
    assert ids <= linked, f"entries docs/OPERATORS.md does not link: {sorted(ids - linked)}"


def test_every_operator_row_is_drawn_or_says_why_not():
    """Each row of docs/OPERATORS.md's operator tables links to its entry, or its first name is
    in the gallery section's "Not drawn, and why" list."""
    import re
    text = (ROOT / "docs/OPERATORS.md").read_text()
    tables = text[text.index("## Creating"):text.index("## The operator gallery")]
    not_drawn = text[text.index("### Not drawn, and why"):text.index("## The whole RAC 2.x surface")]
    rows = [line for line in tables.splitlines() if line.startswith("| ") and not line.startswith(("| Reactive |", "| ---"))]
    assert len(rows) >= 100, "the tables were found"
    silent = []
    for row in rows:
        first_cell = row.split(" | ")[0]
        if "#gallery/" in first_cell:
            continue
        name = re.search(r"`([^`]+)`", first_cell).group(1)
        if f"`{name}`" not in not_drawn:
            silent.append(name)
    assert not silent, f"rows neither drawn nor explained: {silent}"


@pytest.mark.parametrize("entry", ENTRIES, ids=[entry["id"] for entry in ENTRIES])
def test_the_real_operator_draws_what_rac_defines(server, entry):
    status, answer = server.json("POST", "/api/marbles", program(entry), {"Content-Type": "text/plain"})
    assert status == 200, answer
    assert not answer["truncated"]
    for name, expected in entry["expected"].items():
        drawn = answer["streams"][name]
        assert drawn["marbles"] == expected["marbles"], f"{entry['id']}: {name} drew {drawn['marbles']!r}, values {drawn['values']}"
        assert drawn["values"] == expected["values"]


# MARK: The gallery page, in a real browser (headless Chromium)

def open_entry(browser, playground, entry_id):
    from test_page import wait
    from selenium.webdriver.common.by import By

    browser.get("about:blank")
    browser.get_log("browser")
    browser.get(f"{playground.url}/#gallery/{entry_id}")
    wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, ".gallery-output-notation"))

    def output():
        # Each redraw replaces the output: one found just before a redraw is gone when read.
        from selenium.common.exceptions import StaleElementReferenceException
        try:
            return browser.find_element(By.CSS_SELECTOR, '.gallery-output-notation[data-stream="out"]').text
        except StaleElementReferenceException:
            return None

    return output


def output_rows(browser):
    """The output rows' stream names, in order (None while a redraw replaces them)."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    try:
        return [e.get_attribute("data-stream") for e in browser.find_elements(By.CSS_SELECTOR, ".gallery-output-notation")]
    except StaleElementReferenceException:
        return None


def differs_legend(browser):
    """The comparison's legend ("" while a redraw replaces it)."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.common.by import By
    try:
        return browser.find_element(By.CSS_SELECTOR, ".gallery-differs-legend").text
    except (NoSuchElementException, StaleElementReferenceException):
        return ""


def test_dragging_a_marble_and_ending_with_an_error_redraw_the_output(browser, make_playground):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from test_page import check_console, wait

    playground = make_playground()
    browser.set_window_size(1280, 900)
    output = open_entry(browser, playground, "throttle")
    assert output() == "----b-----d---|", "the entry as RAC defines it"
    # b, dragged two frames later, no longer replaces a within 0.2 s: a is sent, then b.
    marble = browser.find_element(By.CSS_SELECTOR, '.gallery-marble[data-symbol="b"]')
    ActionChains(browser).drag_and_drop_by_offset(marble, 60, 0).perform()
    wait(browser, lambda: output() == "---a--b---d---|")
    assert browser.find_element(By.ID, "gallery-notation-a").get_attribute("value") == "-a--b--cd-----|"
    # A value pending at the end: sent at completion (RAC), dropped at an error.
    notation = browser.find_element(By.ID, "gallery-notation-a")
    notation.clear()
    notation.send_keys("-ab----cd|")
    wait(browser, lambda: output() == "----b----(d|)")
    from selenium.webdriver.support.ui import Select
    Select(browser.find_element(By.ID, "gallery-end-a")).select_by_value("#")
    wait(browser, lambda: output() == "----b----#")
    browser.save_screenshot(str(ROOT / "test-artifacts" / "gallery-throttle-1280px.png"))
    check_console(browser)


def test_a_marble_moved_by_keyboard_alone_and_the_list_found_by_another_librarys_name(browser, make_playground):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium_axe_python import Axe
    from test_page import check_console, wait

    playground = make_playground()
    browser.set_window_size(1280, 900)
    browser.get(f"{playground.url}/#gallery")
    search = browser.find_element(By.ID, "gallery-search")
    wait(browser, lambda: search.is_displayed())
    search.send_keys("debounce")  # RxSwift's and Combine's name for RAC's throttle
    # The comparison of the two names ReactiveSwift calls debounce and throttle comes up too.
    wait(browser, lambda: [a.text for a in browser.find_elements(By.CSS_SELECTOR, "#gallery-list a")]
         == ["throttle", "throttle / rateLimit"])
    browser.save_screenshot(str(ROOT / "test-artifacts" / "gallery-list-1280px.png"))

    output = open_entry(browser, playground, "delay")
    assert output() == "---a-b-|"
    browser.find_element(By.ID, "gallery-notation-a").send_keys(Keys.TAB, Keys.TAB)  # past the end choice, to marble a
    focused = browser.switch_to.active_element
    assert focused.get_attribute("data-symbol") == "a", focused.get_attribute("outerHTML")[:200]
    focused.send_keys(Keys.ARROW_RIGHT)  # a moves one frame later: next to b
    wait(browser, lambda: output() == "----ab-|")
    assert browser.find_element(By.ID, "gallery-notation-a").get_attribute("value") == "--ab-|"
    focused = browser.switch_to.active_element
    assert focused.get_attribute("data-symbol") == "a", "focus stays on the marble it moved"
    focused.send_keys(Keys.DELETE)
    wait(browser, lambda: output() == "-----b-|")
    assert browser.find_element(By.ID, "gallery-notation-a").get_attribute("value") == "---b-|"
    axe = Axe(browser)
    axe.inject()
    serious = [v for v in axe.run()["violations"] if v["impact"] in ("serious", "critical")]
    assert not serious, [(v["id"], v["help"], [n["target"] for n in v["nodes"]][:3]) for v in serious]
    browser.set_window_size(375, 812)
    browser.save_screenshot(str(ROOT / "test-artifacts" / "gallery-delay-375px.png"))
    width = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], "only the rows scroll sideways on a phone"
    check_console(browser)


def test_every_entry_page_draws_its_expected_output(browser, make_playground):
    """The page builds each entry's program itself (values, nested diagrams, several rows): every
    entry's page shows the output the entry expects."""
    from selenium.webdriver.common.by import By
    from test_page import check_console, wait

    playground = make_playground("--marble-runs-per-second", "1000")
    browser.set_window_size(1280, 900)
    browser.get("about:blank")
    browser.get_log("browser")
    browser.get(f"{playground.url}/#gallery")
    wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "#gallery-list a"))
    for entry in ENTRIES:
        browser.execute_script("location.hash = arguments[0]", f"gallery/{entry['id']}")
        for name, expected in entry["expected"].items():
            shown = lambda: [e.text for e in browser.find_elements(By.CSS_SELECTOR, f'.gallery-output-notation[data-stream="{name}"]')]
            wait(browser, lambda: browser.find_element(By.ID, "gallery-entry-title").text == entry["name"]
                 and shown() == [expected["marbles"]])
    check_console(browser)


def test_a_comparison_draws_one_input_and_each_output_with_its_differences_ringed(browser, make_playground):
    """`switchToLatest / flatten / concat` on one stream of streams: one input row, three output
    rows on one time axis, and the events not in every output ringed — by hand: latest lacks x's 3
    and has 4, 5 and its end earlier than queued (3 ringed); merged has 3 where latest has none
    (4); queued is later from 3 on (4). The ringed events are said in each row's label, the entry
    passes axe, and its SVG download keeps the rings."""
    from selenium.webdriver.common.by import By
    from selenium_axe_python import Axe
    from test_page import check_console, wait

    playground = make_playground()
    browser.set_window_size(1280, 900)
    open_entry(browser, playground, "compareFlattening")
    wait(browser, lambda: output_rows(browser) == ["latest", "merged", "queued"])
    assert len(browser.find_elements(By.CSS_SELECTOR, "#gallery-inputs .gallery-lane")) == 1, "the shared input, drawn once"
    rings = {}
    for block in browser.find_elements(By.CSS_SELECTOR, "#gallery-outputs .gallery-output"):
        name = block.find_element(By.CSS_SELECTOR, ".gallery-output-notation").get_attribute("data-stream")
        rings[name] = [float(ring.get_attribute("data-time")) for ring in block.find_elements(By.CSS_SELECTOR, ".gallery-differs")]
        label = block.find_element(By.CSS_SELECTOR, ".gallery-lane").get_attribute("aria-label")
        assert label.endswith(f"{len(rings[name])} events not in every row, ringed"), label
    assert rings == {"latest": [600, 800, 1100], "merged": [600, 700, 800, 1100], "queued": [700, 900, 1100, 1200]}
    assert "11 events" in differs_legend(browser)
    axe = Axe(browser)
    axe.inject()
    serious = [v for v in axe.run()["violations"] if v["impact"] in ("serious", "critical")]
    assert not serious, [(v["id"], v["help"], [n["target"] for n in v["nodes"]][:3]) for v in serious]
    browser.save_screenshot(str(ROOT / "test-artifacts" / "gallery-compare-flattening-1280px.png"))
    # A comparison with nothing in common but its first values: the catch and retry of one error.
    browser.execute_script("location.hash = 'gallery/compareCatchRetry'")
    wait(browser, lambda: output_rows(browser) == ["caught", "retried"])
    wait(browser, lambda: len(browser.find_elements(By.CSS_SELECTOR, ".gallery-differs")) == 4)
    check_console(browser)


def test_compare_with_adds_a_variant_that_is_drawn_ringed_and_linkable(browser, make_playground):
    """On throttle's entry, by keyboard: "Compare with…" adds a variant that starts as the entry's
    own expression (nothing ringed); changed to rateLimit, it is drawn under throttle's output, and
    since the two share no value the legend says so rather than ringing every one (a variant that
    shares some is ringed where it differs); the address then carries the variant, and opening it again restores
    the comparison; Remove takes it away."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from test_page import check_console, wait

    playground = make_playground()
    browser.set_window_size(1280, 900)
    output = open_entry(browser, playground, "throttle")
    rows = lambda: output_rows(browser)
    legend = lambda: differs_legend(browser)
    browser.find_element(By.ID, "gallery-compare").send_keys(Keys.ENTER)
    field = browser.switch_to.active_element
    assert field.get_attribute("id") == "gallery-variant-0" and field.get_attribute("value") == "a.throttle(0.2s)"
    wait(browser, lambda: rows() == ["out", "variant1"] and legend() == "Every output row has the same events.")
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys("a.rateLimit(0.2s)")

    def variant():
        from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
        try:  # each redraw replaces the rows
            return browser.find_element(By.CSS_SELECTOR, '.gallery-output-notation[data-stream="variant1"]').text
        except (NoSuchElementException, StaleElementReferenceException):
            return None
    # throttle and rateLimit share no value at the same time: a ring on every value would say
    # nothing, so the legend says it instead.
    wait(browser, lambda: variant() == "-a-b---c-d----|" and legend().startswith("Not ringed"))
    assert legend() == "Not ringed: out, rateLimit: not one of their values comes in every other row at the same time — ringing every one would say nothing.", legend()
    assert not browser.find_elements(By.CSS_SELECTOR, ".gallery-differs")
    assert output() == "----b-----d---|"
    # Named after what it runs, in its control and on its output row.
    assert browser.find_element(By.CSS_SELECTOR, ".gallery-variant label").text == "rateLimit"
    labels = [e.text for e in browser.find_elements(By.CSS_SELECTOR, ".gallery-output .gallery-row-name")]
    assert labels[-1] == "rateLimit", labels
    # A variant that shares some values with the entry: only what differs is ringed.
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys("a.rateLimit(0.3s)")  # b and d as throttle's, a and c apart
    wait(browser, lambda: variant() == "-a--b--c--d---|" and legend().startswith("Ringed"))
    assert len(browser.find_elements(By.CSS_SELECTOR, ".gallery-differs")) == 2
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys("a.rateLimit(0.2s)")
    wait(browser, lambda: variant() == "-a-b---c-d----|")
    link = browser.execute_script("return location.hash")
    assert link.startswith("#gallery/throttle/compare=")
    browser.get("about:blank")
    browser.get(f"{playground.url}/{link}")
    wait(browser, lambda: rows() == ["out", "variant1"] and variant() == "-a-b---c-d----|")
    assert browser.find_element(By.ID, "gallery-variant-0").get_attribute("value") == "a.rateLimit(0.2s)"
    browser.save_screenshot(str(ROOT / "test-artifacts" / "gallery-compare-with-1280px.png"))
    # A typo: the problem itself with the editor's hint, and no drawing left of another program.
    field = browser.find_element(By.ID, "gallery-variant-0")
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys("a.rateLimt(0.2s)")
    status = browser.find_element(By.ID, "gallery-status")
    wait(browser, lambda: status.text.startswith("Not drawn"))
    assert "unknown operator rateLimt — did you mean rateLimit?" in status.text, status.text
    assert rows() == [] and not browser.find_elements(By.CSS_SELECTOR, ".gallery-differs")
    refused = [entry["message"] for entry in browser.get_log("browser") if entry["level"] in ("SEVERE", "ERROR")]
    assert all("/api/marbles" in message and "400" in message for message in refused), refused  # the refusal, nothing else
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys("a.rateLimit(0.2s)")
    wait(browser, lambda: rows() == ["out", "variant1"] and status.text == "")
    browser.find_element(By.CSS_SELECTOR, ".gallery-variant button").click()
    wait(browser, lambda: rows() == ["out"])
    assert browser.execute_script("return location.hash") == "#gallery/throttle"
    check_console(browser)
