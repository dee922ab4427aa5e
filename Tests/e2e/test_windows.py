"""Windows that keep the story (#72), in headless Chromium at 1280×800 and 375×800: a scenario that
waits for nothing still shows a typed value beside its effect in its first window; tick labels never
meet; a finished run stays in view however far its clock goes on, and "Earlier" brings back earlier
events; after Run the editor's diagram is in the first screen. Time moves on the virtual clock (the
page's own "+500 ms"), never by sleeping. Screenshots go to the test's tmp dir."""
import itertools

import pytest
from selenium.webdriver.common.by import By

from test_diagram import latest, open_page, set_viewport
from test_editor import open_editor, replace_program
from test_page import check_console, wait

SIZES = [(1280, 800), (375, 800)]
size_ids = lambda size: f"{size[0]}px"

# Each drawn glyph's row, and whether its marble (or stack) lies inside the lanes' visible part.
DRAWN = """
const lanes = document.querySelector('.lanes').getBoundingClientRect();
return [...document.querySelectorAll('.lanes-svg .glyph:not(.mark):not([data-source])')].map((g) => {
  const box = (g.querySelector('.marble-circle, .stack-shadow, .step-dot') ?? g).getBoundingClientRect();
  return { stream: g.dataset.stream, visible: box.width > 0 && box.left >= lanes.left - 1 && box.right <= lanes.right + 1 };
});
"""
TICKS = """
return [...document.querySelectorAll('.lanes-svg .tick-label')].map((t) => {
  const r = t.getBoundingClientRect(); return { text: t.textContent, box: [r.left, r.top, r.right, r.bottom] };
});
"""


@pytest.fixture
def sized(browser):
    yield lambda width, height: set_viewport(browser, width, height)
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def visible_rows(browser):
    """The rows that have a glyph inside the visible window."""
    return {glyph["stream"] for glyph in browser.execute_script(DRAWN) if glyph["visible"]}


def clock_reading(browser):
    return int(browser.find_element(By.ID, "virtual-time").text.removesuffix(" ms"))


def advance(browser, milliseconds):
    """Moves the session's virtual clock by the page's own "+500 ms", and waits until it has moved."""
    target = clock_reading(browser) + milliseconds
    button = browser.find_element(By.ID, "advance-500")
    for _ in range(milliseconds // 500):
        button.click()
    wait(browser, lambda: clock_reading(browser) >= target)
    wait(browser, lambda: browser.find_element(By.ID, "clock").get_attribute("aria-busy") != "true")


def window_ms(browser):
    return float(browser.find_element(By.ID, "window-size").text.removesuffix(" s")) * 1000


def assert_ticks_apart(browser):
    ticks = browser.execute_script(TICKS)
    assert len(ticks) >= 2, ticks
    for a, b in itertools.combinations(ticks, 2):
        overlap = a["box"][0] < b["box"][2] and b["box"][0] < a["box"][2]
        assert not overlap, f"tick labels meet: {a} and {b}"


# A typed value (or a tap) and the row its effect reaches, by scenario.
STORIES = {
    "binding": ("fieldA", "Grace", "input:fieldA", "label"),
    "schedulers": ("tap", None, "input:tap", "deliverOnQueue"),
}


@pytest.mark.parametrize("size", SIZES, ids=size_ids)
@pytest.mark.parametrize("scenario", sorted(STORIES))
def test_a_typed_value_and_its_effect_stay_in_the_first_window(browser, make_playground, sized, tmp_path, scenario, size):
    """Typed "Grace" (binding) or a tap (schedulers), then 2 s of virtual time: the input's marble and
    its effect's are still drawn inside the window the scenario opened with (at 1.25 s they were gone)."""
    playground = make_playground()
    sized(*size)
    open_page(browser, playground, f"step={scenario}")
    name, value, input_row, effect_row = STORIES[scenario]
    opened = window_ms(browser)
    if value is None:
        browser.find_element(By.ID, f"input-{name}").click()
    else:
        box = browser.find_element(By.ID, f"input-{name}")
        box.clear()
        box.send_keys(value)
    wait(browser, lambda: {input_row, effect_row} <= visible_rows(browser))
    if value is not None:
        wait(browser, lambda: value in latest(browser, effect_row))
    advance(browser, 2000)
    assert window_ms(browser) == opened, "the window is the one the scenario opened with"
    assert {input_row, effect_row} <= visible_rows(browser), f"2 s later only {visible_rows(browser)} are in view"
    assert_ticks_apart(browser)
    browser.save_screenshot(str(tmp_path / f"windows-{scenario}-{size[0]}px.png"))
    check_console(browser)


@pytest.mark.parametrize("size", SIZES, ids=size_ids)
def test_tick_labels_never_meet_at_any_zoom(browser, make_playground, sized, size):
    """Past two minutes a tick reads "2 min 5 s", wider than a step's least 64 px: at every zoom
    from the narrowest to 40 s, no two tick labels' boxes overlap."""
    playground = make_playground(fast=True)  # the ticker ticks every 100 ms
    sized(*size)
    session = open_page(browser, playground, "step=ticker")
    for _ in range(2):
        playground.send(session, "advance", "60000", "text/plain")
    playground.send(session, "advance", "5250", "text/plain")
    wait(browser, lambda: clock_reading(browser) >= 125_000, timeout=30)
    while not browser.find_element(By.ID, "zoom-in").get_attribute("disabled"):
        browser.find_element(By.ID, "zoom-in").click()
    while window_ms(browser) <= 40_000:
        assert_ticks_apart(browser)
        before = window_ms(browser)
        browser.find_element(By.ID, "zoom-out").click()
        wait(browser, lambda: window_ms(browser) > before)
    check_console(browser)


FINISHED = """ticks = interval(0.2s).take(3)
doubled = ticks.map { $0 * 2 }
"""
# The same, with a stream that never ends: the run goes on, and following time leaves the ticks.
GOING_ON = FINISHED + "quiet = never\n"


def run_in_editor(browser, playground, program):
    open_editor(browser, playground)
    replace_program(browser, program)
    browser.find_element(By.CSS_SELECTOR, '#program-clock option[value="virtual"]').click()
    browser.find_element(By.ID, "run").click()
    wait(browser, lambda: browser.find_element(By.ID, "connection").text == "Live")


@pytest.mark.parametrize("size", SIZES, ids=size_ids)
def test_a_finished_program_stays_in_view_and_earlier_brings_events_back(browser, make_playground, sized, tmp_path, size):
    """A program whose streams have all ended, 10 s of virtual time after its end, following time:
    its events are still drawn in view. One that goes on (a `never`) scrolls them away while it
    follows time, and one "Earlier" brings them back."""
    playground = make_playground()
    sized(*size)
    run_in_editor(browser, playground, FINISHED)
    advance(browser, 1000)
    wait(browser, lambda: {"ticks", "doubled"} <= visible_rows(browser))
    advance(browser, 10_000)
    assert browser.find_element(By.ID, "follow").is_selected(), "still following time"
    assert {"ticks", "doubled"} <= visible_rows(browser), "a finished run stays where its events are"
    browser.save_screenshot(str(tmp_path / f"windows-finished-{size[0]}px.png"))

    run_in_editor(browser, playground, GOING_ON)
    advance(browser, 1000)
    wait(browser, lambda: {"ticks", "doubled"} <= visible_rows(browser))
    advance(browser, 20_000)
    wait(browser, lambda: not visible_rows(browser) & {"ticks", "doubled"})  # followed into the quiet
    browser.find_element(By.ID, "earlier").click()
    wait(browser, lambda: {"ticks", "doubled"} <= visible_rows(browser))
    assert not browser.find_element(By.ID, "follow").is_selected()
    check_console(browser)


@pytest.mark.parametrize("size", SIZES, ids=size_ids)
def test_after_run_the_editors_diagram_is_in_the_first_screen(browser, make_playground, sized, tmp_path, size):
    """Run at 1280×800 (and on a phone): the diagram's box is inside the viewport, and focus is on
    something on screen (the session's title, or the diagram itself)."""
    playground = make_playground()
    sized(*size)
    run_in_editor(browser, playground, FINISHED)
    wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "#streams li.stream"))
    box = browser.execute_script("const r = document.getElementById('diagram').getBoundingClientRect();"
                                 "return [r.top, r.bottom, innerHeight];")
    assert 0 <= box[0] and box[1] <= box[2], f"the diagram spans {box[0]}–{box[1]} of a {box[2]} px screen"
    focused = browser.execute_script("const r = document.activeElement.getBoundingClientRect();"
                                     "return [document.activeElement.id, r.top, r.bottom, innerHeight];")
    assert focused[0] in ("scenario-title", "diagram") and 0 <= focused[1] and focused[2] <= focused[3], focused
    browser.save_screenshot(str(tmp_path / f"windows-run-{size[0]}px.png"))
    check_console(browser)
