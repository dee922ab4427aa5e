"""The marble diagram in a real browser (headless Chromium): one time axis for the inputs and every
stage, marbles that never overlap, one colour per root cause, "why did this fire?" by pointing, and
Play on the virtual clock. Screenshots go to test-artifacts/."""
import time

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import ARTIFACTS
from diagram_geometry import check_diagram
from test_page import check_console, wait

SIZES = [(1280, 800), (375, 800)]

# What each scenario is driven with: (input, value) posts, with virtual milliseconds to advance after
# each on a virtual clock (real-clock sessions wait for the pipeline instead).
DRIVES = {
    "search": [("query", "sw", 0), ("query", "swe", 0), ("query", "swedish", 1600), ("query", "french", 1600),
               ("query", "xyz!fail", 1600), ("query", "danish", 1600)],
    "login": [("username", "u", 100), ("username", "us", 100), ("username", "user", 200),
              ("password", "pass", 100), ("password", "password", 300), ("submit", "", 1200)],
    "binding": [("fieldA", "Grace", 200), ("fieldB", "Grace Hopper", 200), ("fieldA", "Ada", 200)],
}
# The last stream each drive changes, and a value it shows when the drive is done.
DONE = {"search": ("results", "Danish"), "login": ("signInResult", "true"), "binding": ("label", "Hello, Ada!")}


def set_viewport(browser, width, height):
    """The page's viewport (not the window) is exactly width × height, as on a screen of that size."""
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})


@pytest.fixture
def viewport(browser):
    yield lambda width, height: set_viewport(browser, width, height)
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def latest(browser, stream):
    return browser.find_element(By.CSS_SELECTOR, f'li.stream[data-stream="{stream}"] output.latest').text


def session_of(browser):
    return browser.current_url.split("session=")[1].split("&")[0]


def open_page(browser, playground, fragment):
    browser.get("about:blank")
    browser.get_log("browser")
    browser.get(f"{playground.url}/#{fragment}")
    wait(browser, lambda: browser.find_element(By.ID, "connection").text == "Live")
    wait(browser, lambda: "session=" in browser.current_url)
    return session_of(browser)


def drive(browser, playground, session, scenario, virtual):
    for name, value, advance in DRIVES[scenario]:
        playground.send(session, name, value, "text/plain")
        if virtual:
            playground.send(session, "advance", str(advance), "text/plain")
        else:
            time.sleep(0.3)  # a person's pace, so the steps stand apart on the axis (the checks hold either way)
    stream, value = DONE[scenario]
    wait(browser, lambda: value in latest(browser, stream))


@pytest.mark.parametrize("clock", ["real", "virtual"])
@pytest.mark.parametrize("scenario", ["search", "login", "binding"])
def test_the_diagram_stays_legible(browser, make_playground, viewport, scenario, clock):
    """Every size: no glyph or label overlaps another, labels stay in their rows, the axis runs
    forward; the inputs and the first two stages are in view at 1280×800 without scrolling."""
    playground = make_playground()
    viewport(*SIZES[0])
    session = open_page(browser, playground, f"step={scenario}" if clock == "virtual" else scenario)
    drive(browser, playground, session, scenario, clock == "virtual")
    for width, height in SIZES:
        viewport(width, height)
        browser.execute_script("window.dispatchEvent(new Event('resize'))")  # relays the diagram out at once
        check_diagram(browser)
        page_width = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        assert page_width[0] <= page_width[1], "only the diagram scrolls sideways"
        if width == 1280:
            stages = browser.find_elements(By.CSS_SELECTOR, "li.stream:not(.input-row)")[:2]
            bottom = max(stage.rect["y"] + stage.rect["height"] for stage in stages)
            assert bottom <= height, f"the first two stages end at {bottom} px, below the fold"
            inputs = browser.find_element(By.ID, "inputs").rect
            assert inputs["y"] + inputs["height"] <= height
        browser.save_screenshot(str(ARTIFACTS / f"diagram-{scenario}-{clock}-{width}px.png"))
    check_console(browser)


def search_two_queries(browser, playground):
    """A virtual-clock search session with two queries 1.6 s apart, each answered."""
    session = open_page(browser, playground, "step=search")
    for query in ("danish", "french"):
        playground.send(session, "query", query, "text/plain")
        playground.send(session, "advance", "1600", "text/plain")
        wait(browser, lambda: query.capitalize() in latest(browser, "results"))
    return session


def zoom_to(browser, window):
    """Clicks + or − until the time window reads `window` (the zoom halves or doubles it)."""
    for _ in range(12):
        shown = browser.find_element(By.ID, "window-size").text
        if shown == window:
            return
        seconds = float(shown.split()[0]) if shown.endswith(" s") and "min" not in shown else 600
        browser.find_element(By.ID, "zoom-in" if seconds > float(window.split()[0]) else "zoom-out").click()
    raise AssertionError(f"the zoom never reads {window}")


def test_one_cause_has_one_colour_and_pointing_at_a_result_lights_up_its_causes(browser, make_playground, viewport):
    playground = make_playground(fast=False)
    viewport(1280, 800)
    session = search_two_queries(browser, playground)
    zoom_to(browser, "5 s")  # both queries and their results on screen

    def fill(stream, value):
        glyph = browser.find_element(By.XPATH, f'//*[contains(@class, "glyph") and @data-stream="{stream}"]'
                                               f'[*[local-name()="text" and text()="{value}"]]')
        return glyph.find_element(By.CSS_SELECTOR, ".marble-circle").get_attribute("fill")

    assert fill("validQuery", "danish") == fill("throttled", "danish") == fill("input:query", "danish")

    results = browser.find_elements(By.CSS_SELECTOR, '.glyph[data-stream="results"]:not(.mark):not([data-source])')
    assert len(results) == 2
    ActionChains(browser).move_to_element(results[0]).perform()
    related = lambda stream: [g.get_attribute("data-seqs") for g in
                              browser.find_elements(By.CSS_SELECTOR, f'.glyph.related[data-stream="{stream}"]')]
    wait(browser, lambda: related("input:query"))
    watcher = playground.watch(f"/api/sessions/{session}/events", last_event_id="0")
    events = watcher.wait_for(lambda events: any(e["event"] == "results" for e in events))
    watcher.close()
    first_result = next(e["json"] for e in events if e["event"] == "results" and e["json"]["kind"] == "next")
    [cause] = first_result["causes"]
    assert related("input:query") == [str(cause)], "the danish query's input event, and no other"
    throttled = next(e["json"] for e in events if e["event"] == "throttled" and e["json"].get("value") == "danish")
    assert related("throttled") == [str(throttled["seq"])]
    assert str(first_result["seq"]) in related("results")[0].split()
    assert browser.find_elements(By.CSS_SELECTOR, ".trace-line"), "lines from the input down the stages"
    detail = browser.find_element(By.ID, "marble-detail")
    assert "caused by input query danish" in detail.text
    # Said next to the marble pointed at, just under it: not below the diagram, off screen.
    marble, said = results[0].rect, detail.rect
    assert 0 <= said["y"] - (marble["y"] + marble["height"]) <= 20, (marble, said)
    assert said["x"] <= marble["x"] + marble["width"] and marble["x"] <= said["x"] + said["width"], (marble, said)
    ActionChains(browser).move_to_element(browser.find_element(By.ID, "streams-title")).perform()
    wait(browser, lambda: "pointing" not in detail.get_attribute("class"))
    check_console(browser)


def test_marbles_are_reached_and_read_by_keyboard(browser, make_playground, viewport):
    playground = make_playground(fast=False)
    viewport(1280, 800)
    search_two_queries(browser, playground)
    stops = browser.find_elements(By.CSS_SELECTOR, '.lanes-svg .glyph[tabindex="0"]')
    assert len(stops) == 1, "one tab stop for all the marbles"
    browser.execute_script("document.getElementById('diagram').focus()")  # then Tab from the diagram's own stop
    focused = lambda: browser.switch_to.active_element
    for _ in range(10):
        if "glyph" in (focused().get_attribute("class") or ""):
            break
        focused().send_keys(Keys.TAB)
    assert "glyph" in focused().get_attribute("class")
    start = focused().get_attribute("aria-label")
    focused().send_keys(Keys.END)
    focused().send_keys(Keys.ARROW_DOWN)
    moved = focused().get_attribute("aria-label")
    assert moved != start and " at " in moved, moved
    assert browser.find_element(By.ID, "marble-detail").text == moved, "the detail line says what is focused"
    check_console(browser)


def test_play_moves_the_virtual_clock_at_a_quarter_of_real_time(browser, make_playground, viewport):
    from selenium.webdriver.support.ui import Select

    playground = make_playground(fast=False)
    viewport(1280, 800)
    session = open_page(browser, playground, "step=search")
    Select(browser.find_element(By.ID, "speed")).select_by_value("0.25")
    browser.find_element(By.ID, "play").click()
    assert browser.find_element(By.ID, "play").get_attribute("aria-pressed") == "true"
    virtual_time = lambda: playground.json("GET", f"/api/sessions/{session}")[1]["virtualTime"]
    wait(browser, lambda: virtual_time() > 0)
    wall_start, virtual_start = time.monotonic(), virtual_time()
    time.sleep(4.5)  # the measurement's span of wall time (the issue asks for at least 4 s)
    wall, virtual = time.monotonic() - wall_start, virtual_time() - virtual_start
    browser.find_element(By.ID, "play").click()
    assert browser.find_element(By.ID, "play").get_attribute("aria-pressed") == "false"
    rate = virtual / (wall * 1000)
    assert 0.2 <= rate <= 0.3, f"virtual clock moved {virtual} ms in {wall:.2f} s: {rate:.3f}× instead of 0.25×"
    # A step sent just before the pause may still be on its way: wait until the clock settles.
    wait(browser, lambda: browser.find_element(By.ID, "clock").get_attribute("aria-busy") == "false")
    readings = [virtual_time()]
    wait(browser, lambda: readings.append(virtual_time()) or readings[-1] == readings[-2])
    time.sleep(1)  # a second of wall time in which a playing clock would move 250 ms
    assert virtual_time() == readings[-1], "Pause stops the clock"
    check_console(browser)


def test_booleans_and_small_enumerations_are_step_lines(browser, make_playground, viewport):
    """A boolean stream, a choice input and a stream with known levels are drawn as a step line,
    the enumerations' levels labelled where the line moves to them."""
    from selenium.webdriver.support.ui import Select

    playground = make_playground()
    viewport(1280, 800)
    open_page(browser, playground, "multicast")
    mode = Select(browser.find_element(By.ID, "input-mode"))
    for choice in ("publish", "cold"):
        mode.select_by_visible_text(choice)
        wait(browser, lambda: latest(browser, "input:mode") == choice)
        browser.find_element(By.ID, "input-subscribeA").click()
        wait(browser, lambda: latest(browser, "subscriberA") == "completed")
    step = lambda stream: browser.find_element(By.CSS_SELECTOR, f'.row[data-stream="{stream}"] .step-line').get_attribute("d") or ""
    assert step("input:mode").count("V") == 1, "one move, from publish's level to cold's"
    zoom_to(browser, "1.25 s")  # the two choices stand apart
    labels = [label.get_attribute("textContent") for label in browser.find_elements(By.CSS_SELECTOR, '.glyph[data-stream="input:mode"] .marble-label')]
    assert labels == ["publish", "cold"]
    assert step("connection"), "connection has known levels"
    assert not browser.find_elements(By.CSS_SELECTOR, '.glyph[data-stream="connection"] .marble-circle:not(.stack .marble-circle)')
    check_diagram(browser)
    check_console(browser)
