"""The diagram's legibility, measured in headless Chromium at 1280×800 and 375×812: colours that
follow the cause, a graph column whose edges are the catalogue's `from` pairs, keystrokes that
stand apart at the default zoom, and stacks that show their values when pointed at. Screenshots go
to test-artifacts/."""
import time

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import ARTIFACTS
from test_diagram import latest, open_page, set_viewport
from test_page import check_console, wait

SIZES = [(1280, 800), (375, 812)]
SCENARIOS = ["login", "search", "command", "binding", "multicast", "schedulers", "ticker"]

# Each value glyph of a row (not a subscription's mark, not an inner lane's): its seqs, fill,
# whether it is a stack, the text it shows, and whether it is inside the visible part of the lanes.
GLYPHS = """
const lanes = document.querySelector('.lanes').getBoundingClientRect();
return [...document.querySelectorAll(`.lanes-svg .glyph[data-stream="${arguments[0]}"]:not(.mark):not([data-source])`)].map((g) => {
  const box = g.getBoundingClientRect();
  const text = g.querySelector('.marble-label, .marble-text:not(.stack-count)')?.textContent ?? '';
  return { seqs: g.dataset.seqs.split(' ').map(Number), fill: g.querySelector('.marble-circle')?.getAttribute('fill'),
           stack: g.classList.contains('stack'), text,
           visible: box.left >= lanes.left - 1 && box.right <= lanes.right + 1 };
});
"""

# Each edge of the graph column as [source row, reader row], read from where its path starts and
# ends on screen, and the x of its vertical stretch with the span of y it covers.
EDGES = """
const rows = [...document.querySelectorAll('#streams li.stream')].map((li) => {
  const r = li.getBoundingClientRect(); return { name: li.dataset.stream, top: r.top, bottom: r.bottom };
});
const graph = document.querySelector('svg.graph');
const screen = (point) => new DOMPoint(point.x, point.y).matrixTransform(graph.getScreenCTM());
const rowAt = (y) => rows.find((row) => row.top <= y && y < row.bottom)?.name ?? null;
return [...graph.querySelectorAll('path.edge')].map((path) => {
  const length = path.getTotalLength();
  const points = Array.from({ length: 41 }, (_, i) => screen(path.getPointAtLength((length * i) / 40)));
  const track = Math.min(...points.map((p) => p.x));
  const vertical = points.filter((p) => Math.abs(p.x - track) < 0.5).map((p) => p.y);
  return { from: rowAt(points[0].y), to: rowAt(points[40].y), track,
           low: Math.min(...vertical), high: Math.max(...vertical) };
});
"""


def glyphs(browser, stream):
    return browser.execute_script(GLYPHS, stream)


def catalogue_edges(playground, scenario_id):
    """The catalogue's `from` pairs as diagram rows: a stream reads the stream of that name (not
    itself), else the input of that name."""
    _, body = playground.json("GET", "/api/scenarios")
    scenario = next(s for s in body["scenarios"] if s["id"] == scenario_id)
    streams = {stream["name"] for stream in scenario["streams"]}
    inputs = {item["name"] for item in scenario["inputs"]}
    edges = set()
    for stream in scenario["streams"]:
        for name in stream["from"]:
            if name != stream["name"] and name in streams:
                edges.add((name, stream["name"]))
            elif name in inputs:
                edges.add((f"input:{name}", stream["name"]))
    return edges


@pytest.fixture
def sized(browser):
    yield lambda width, height: set_viewport(browser, width, height)
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def type_at(box, text, per_second=8, replace=False, each=lambda: None):
    """Types `text` into `box` at a person's pace: one key every 1/per_second s, on a schedule (the
    box is focused first, so that the first key is not late). `replace`: the first key replaces what
    the box holds; `each` runs after every key."""
    box.click()
    if replace:
        box.send_keys(Keys.CONTROL, "a")
    start = time.monotonic()
    for index, character in enumerate(text):
        time.sleep(max(0.0, start + index / per_second - time.monotonic()))
        box.send_keys(character)
        each()


def session_events(playground, session, until):
    """The session's events from the first, read until `until(event)` holds for one of them."""
    watcher = playground.watch(f"/api/sessions/{session}/events", last_event_id="0")
    try:
        events = watcher.wait_for(lambda events: any(until(e["json"]) for e in events))
        return [e["json"] for e in events]
    finally:
        watcher.close()


def zoom_to_keystrokes(browser):
    """Zooms in, as a learner would with "+", to the window in which keystrokes typed at a normal
    pace stand apart at this width (the page's `defaultWindow`)."""
    wanted = browser.execute_async_script("""const done = arguments[0];
        import('/diagram/diagram-window.js').then((m) => done(m.defaultWindow(document.querySelector('.lanes').clientWidth)));""")
    shown = lambda: float(browser.find_element(By.ID, "window-size").text.removesuffix(" s")) * 1000
    while shown() > wanted:
        before = shown()
        browser.find_element(By.ID, "zoom-in").click()
        wait(browser, lambda: shown() < before)


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}px")
def test_typing_swedish_then_french_keeps_one_colour_per_cause(browser, make_playground, sized, size):
    """Typing "swedish" at 8 keys a second shows 7 marbles with their values once zoomed to the
    width's keystroke window (the page opens at the scenario's story, 10 s, where they stack);
    after "french" the query marbles on screen never share a colour, and the throttled "swedish"
    and its results take the colour of the last "swedish" keystroke."""
    playground = make_playground(fast=False)  # the scenario's own 0.5 s throttle and 1 s service
    sized(*size)
    session = open_page(browser, playground, "search")
    zoom_to_keystrokes(browser)
    box = browser.find_element(By.ID, "input-query")
    type_at(box, "swedish")
    wait(browser, lambda: len(browser.find_elements(By.CSS_SELECTOR, '.glyph[data-stream="input:query"]')) >= 7
         or any(g["stack"] for g in glyphs(browser, "input:query")))
    typed = glyphs(browser, "input:query")
    assert len(typed) == 7 and not any(g["stack"] for g in typed), typed
    for glyph, value in zip(typed, ["s", "sw", "swe", "swed", "swedi", "swedis", "swedish"]):
        shown = glyph["text"].removesuffix("…")
        assert shown and value.startswith(shown), f"{value!r} shows {glyph['text']!r}"
    if size[0] >= 1280:
        assert all(g["visible"] for g in typed), "all seven are on screen at once"
    browser.save_screenshot(str(ARTIFACTS / f"legibility-typing-{size[0]}px.png"))

    # A pause until the search starts, then "french": the words share the screen for a while.
    wait(browser, lambda: latest(browser, "throttled") == "swedish", timeout=15)
    seen = []

    def colours_on_screen_differ():
        on_screen = [g for g in glyphs(browser, "input:query") if g["visible"] and not g["stack"]]
        seen.append({g["text"][:1] for g in on_screen})
        if len(on_screen) <= 12:
            assert len({g["fill"] for g in on_screen}) == len(on_screen), f"query marbles share a colour: {on_screen}"

    type_at(box, "french", replace=True, each=colours_on_screen_differ)
    if size[0] >= 1280:  # a phone's window is too short to hold both
        assert any({"s", "f"} <= firsts for firsts in seen), f"the words never shared the screen: {seen}"
    wait(browser, lambda: "French" in latest(browser, "results"), timeout=15)
    browser.save_screenshot(str(ARTIFACTS / f"legibility-search-{size[0]}px.png"))

    events = session_events(playground, session,
                            until=lambda e: e["stream"] == "results" and "French" in str(e.get("value")))
    events = [e for e in events if e["kind"] == "next"]  # values, not subscriptions' starts and ends
    last_swedish = next(e for e in events if e["stream"] == "input:query" and e["value"] == "swedish")
    fill_of = lambda stream, seq: next(g["fill"] for g in glyphs(browser, stream) if seq in g["seqs"])
    colour = fill_of("input:query", last_swedish["seq"])
    throttled = next(e for e in events if e["stream"] == "throttled" and e["value"] == "swedish")
    results = next(e for e in events if e["stream"] == "results" and "Swedish" in str(e["value"]))
    assert throttled["causes"] == results["causes"] == [last_swedish["seq"]]
    assert fill_of("throttled", throttled["seq"]) == colour
    assert fill_of("results", results["seq"]) == colour
    check_console(browser)


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}px")
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_graph_column_draws_exactly_the_catalogues_edges(browser, playground, sized, scenario, size):
    """Read from the SVG: each edge starts in its source row and ends in its reader row, the set of
    them is the catalogue's `from` pairs, and edges whose vertical stretches overlap never share a
    track. Pointing at a row lights its edges and no others. On a phone the column gives way."""
    sized(*size)
    open_page(browser, playground, scenario)
    wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "#streams li.stream"))
    if size[0] < 640:
        # On a phone the lanes take the width: the graph column gives way (the rows' names sit
        # above their lanes, and each row's description says what it reads).
        assert not browser.find_element(By.CSS_SELECTOR, ".graph").is_displayed()
        check_console(browser)
        return
    drawn = browser.execute_script(EDGES)
    pairs = [(edge["from"], edge["to"]) for edge in drawn]
    assert len(pairs) == len(set(pairs)), "one edge per pair"
    assert set(pairs) == catalogue_edges(playground, scenario)
    for a in drawn:
        for b in drawn:
            if a is not b and a["low"] < b["high"] and b["low"] < a["high"]:
                assert abs(a["track"] - b["track"]) >= 2, f"edges share a track: {a} and {b}"
    if scenario == "search" and size[0] >= 1280:
        label = browser.find_element(By.CSS_SELECTOR, 'li.stream[data-stream="throttled"]')
        ActionChains(browser).move_to_element(label).perform()
        lit = lambda: {(g.get_attribute("data-from"), g.get_attribute("data-to"))
                       for g in browser.find_elements(By.CSS_SELECTOR, ".graph .edge-group.lit")}
        wait(browser, lit)
        assert lit() == {pair for pair in set(pairs) if "throttled" in pair}
        browser.save_screenshot(str(ARTIFACTS / "legibility-graph-1280px.png"))
    check_console(browser)


def test_a_stack_shows_its_values_when_pointed_at(browser, make_playground, sized):
    """Keys typed faster than the default zoom tells apart make a stack; pointing at it writes its
    values across its row, without a click, and they go when the pointer leaves."""
    playground = make_playground()
    sized(1280, 800)
    open_page(browser, playground, "search")
    box = browser.find_element(By.ID, "input-query")
    box.send_keys("abc")  # as fast as the driver types: closer together than a marble's width
    wait(browser, lambda: any(g["stack"] for g in glyphs(browser, "input:query")))
    stack = browser.find_element(By.CSS_SELECTOR, '.glyph.stack[data-stream="input:query"]')
    ActionChains(browser).move_to_element(stack).perform()
    text = lambda: "".join(node.text for node in browser.find_elements(By.CSS_SELECTOR, ".stack-values-text"))
    wait(browser, lambda: "a · ab" in text())
    browser.save_screenshot(str(ARTIFACTS / "legibility-stack-1280px.png"))
    ActionChains(browser).move_to_element(browser.find_element(By.ID, "streams-title")).perform()
    wait(browser, lambda: not text())
    check_console(browser)


def test_a_scenario_with_a_program_offers_its_program_text(browser, playground, sized):
    """The source panel shows the scenario's Swift, and one button away the same pipeline as a
    program, its lines that make streams marked; and back."""
    sized(1280, 800)
    open_page(browser, playground, "search")
    choice = lambda kind: browser.find_element(By.CSS_SELECTOR, f'#source-choice button[data-kind="{kind}"]')
    assert choice("swift").get_attribute("aria-pressed") == "true"
    choice("program").click()
    assert choice("program").get_attribute("aria-pressed") == "true"
    marked = [line.get_attribute("data-stream") for line in browser.find_elements(By.CSS_SELECTOR, "#source-code .defines")]
    assert {"validQuery", "throttled", "results"} <= set(marked), marked
    assert ".throttle(" in browser.find_element(By.ID, "source-code").text
    assert not browser.find_elements(By.ID, "source-unfold"), "a program has nothing to fold"
    choice("swift").click()
    assert "stages.watch(" in browser.find_element(By.ID, "source-code").text
    assert browser.find_element(By.ID, "source-unfold").is_displayed()
    check_console(browser)
