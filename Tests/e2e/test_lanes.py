"""What RAC hides, drawn: one lane per subscription with its `^` and `!`, identical lanes folded
with a count, a stream's inner subscriptions as short lanes under it, at desktop and phone sizes,
in Chromium. The sessions run on the virtual clock, so every time is exact."""
import json

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import ARTIFACTS
from diagram_geometry import check_diagram
from test_diagram import set_viewport
from test_page import check_console, latest, wait
from test_side_effects import open_session

SIZES = [(1280, 800), (375, 812)]
SIZE_IDS = ["1280px", "375px"]

# Every glyph of a row, lane by lane: its lane, kind (`^`, `!` or a value's), subscription, source,
# label, the x of its centre on screen, and whether it lights up as related to the one pointed at.
ROW = """
const row = [...document.querySelectorAll('.lanes-svg .row')].find((g) => g.dataset.stream === arguments[0]);
if (!row) return null;
const lanes = [...row.querySelectorAll('.lane')].map((lane) => ({
  kind: lane.classList.contains('lane-inner') ? 'inner' : 'main', folded: lane.classList.contains('lane-folded'),
  glyphs: [...lane.querySelectorAll('.glyph')].map((g) => {
    const r = g.getBoundingClientRect();
    return { mark: g.classList.contains('mark-subscribed') ? '^' : g.classList.contains('mark-disposed') ? '!' : null,
             sub: g.dataset.sub ?? null, source: g.dataset.source ?? null, label: g.getAttribute('aria-label'),
             x: (r.left + r.right) / 2, related: g.classList.contains('related'),
             completed: Boolean(g.querySelector('.completed-bar')), stack: g.classList.contains('stack') };
  }),
}));
const toggle = document.querySelector(`li.stream[data-stream="${arguments[0]}"] .fold-toggle`);
return { lanes, toggle: toggle && !toggle.hidden ? { text: toggle.textContent, expanded: toggle.getAttribute('aria-expanded'),
                                                       label: toggle.getAttribute('aria-label') } : null };
"""


@pytest.fixture
def sized(browser):
    yield lambda width, height: set_viewport(browser, width, height)
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def run_program(browser, playground, program):
    """Runs `program` on the virtual clock and opens its session's page."""
    status, _, raw = playground.request("POST", "/api/pipelines?clock=virtual", body=program.encode(),
                                        headers={"Content-Type": "text/plain"})
    assert status == 201, raw
    session = json.loads(raw)["session"]
    open_session(browser, playground, session)
    return session


def row(browser, name):
    return browser.execute_script(ROW, name)


def main_lanes(browser, name):
    return [lane for lane in (row(browser, name) or {"lanes": []})["lanes"] if lane["kind"] == "main"]


def marks(lane, kind):
    return [glyph for glyph in lane["glyphs"] if glyph["mark"] == kind]


def advance(browser, playground, session, ms):
    playground.send(session, "advance", str(ms), "text/plain")


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_two_readers_draw_two_lanes_of_the_request_and_sharing_draws_one(browser, make_playground, sized, size):
    """`r` read by `a` and `b` is subscribed twice: two lanes, each from its own `^`. Before the
    responses they carry the same events, so they are folded (×2) until the learner unfolds them;
    the responses differ, so then they stand apart. Shared with replayLazily(), the two
    subscriptions of `r` carry the same events (one lane, ×2) and make one request."""
    playground = make_playground(fast=False)
    sized(*size)
    program = 'r = request()\na = r.map { "A got " + $0 }\nb = r.map { "B got " + $0 }\n'
    session = run_program(browser, playground, program)
    wait(browser, lambda: len(main_lanes(browser, "r")) == 1 and row(browser, "r")["toggle"])
    drawn = row(browser, "r")
    [lane] = drawn["lanes"]
    assert lane["folded"] and len(marks(lane, "^")) == 1
    assert drawn["toggle"]["text"] == "×2" and drawn["toggle"]["expanded"] == "false"
    assert "2 subscriptions" in drawn["toggle"]["label"]
    assert "2 identical subscriptions folded" in marks(lane, "^")[0]["label"]

    toggle = browser.find_element(By.CSS_SELECTOR, 'li.stream[data-stream="r"] .fold-toggle')
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", toggle)
    toggle.click()  # unfolded by a click…
    wait(browser, lambda: len(main_lanes(browser, "r")) == 2)
    lanes = main_lanes(browser, "r")
    subs = [marks(lane, "^")[0]["sub"] for lane in lanes]
    assert len(set(subs)) == 2, "a lane per subscription, each from its own ^"
    assert row(browser, "r")["toggle"]["expanded"] == "true"
    check_diagram(browser)
    browser.switch_to.active_element.send_keys(Keys.ENTER)  # …and folded again by a key
    wait(browser, lambda: len(main_lanes(browser, "r")) == 1)

    advance(browser, playground, session, 1000)
    wait(browser, lambda: latest(browser, "b") == "completed")  # the response, then completed
    wait(browser, lambda: len(main_lanes(browser, "r")) == 2)
    lanes = main_lanes(browser, "r")
    assert row(browser, "r")["toggle"] is None, "different responses: nothing to fold"
    values = sorted(glyph["label"] for lane in lanes for glyph in lane["glyphs"] if glyph["stack"] or not glyph["mark"])
    assert "response 1" in values[0] and "response 2" in values[1]
    for lane in lanes:
        assert len(marks(lane, "^")) == 1 and len(marks(lane, "!")) == 1
        assert marks(lane, "^")[0]["x"] < marks(lane, "!")[0]["x"]
    check_diagram(browser)
    browser.save_screenshot(str(ARTIFACTS / f"lanes-two-requests-{size[0]}px.png"))
    check_console(browser)

    session = run_program(browser, playground, program.replace("request()", "request().replayLazily()"))
    advance(browser, playground, session, 1000)
    wait(browser, lambda: latest(browser, "b") == "completed")
    wait(browser, lambda: any(lane["kind"] == "inner" for lane in row(browser, "r")["lanes"]))
    drawn = row(browser, "r")
    [lane] = [lane for lane in drawn["lanes"] if lane["kind"] == "main"]
    assert lane["folded"] and drawn["toggle"]["text"] == "×2", "two subscriptions of r, the same events"
    inner = [glyph for lane in drawn["lanes"] if lane["kind"] == "inner" for glyph in lane["glyphs"]]
    assert [glyph["source"] for glyph in inner if glyph["mark"] == "^"] == ["r·request"], "one request"
    check_diagram(browser)
    browser.save_screenshot(str(ARTIFACTS / f"lanes-shared-request-{size[0]}px.png"))
    check_console(browser)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_a_newer_query_ends_the_older_searchs_lane_before_any_result(browser, make_playground, sized, size):
    """The search scenario on the virtual clock (0.5 s throttle, 1 s search): "swedish" is typed,
    searched at 0.5 s; "danish" is typed, and at 1 s its search replaces the first, whose inner
    lane ends in `!` with no answer — before any result is drawn."""
    playground = make_playground(fast=False)
    sized(*size)
    browser.get("about:blank")
    browser.get(f"{playground.url}/#step=search")
    wait(browser, lambda: browser.find_element(By.ID, "connection").text == "Live")
    wait(browser, lambda: "session=" in browser.current_url)
    session = browser.current_url.split("session=")[1]
    query = browser.find_element(By.ID, "input-query")
    query.send_keys("swedish")
    wait(browser, lambda: latest(browser, "input:query") == "swedish")
    advance(browser, playground, session, 500)
    query.clear()
    query.send_keys("danish")
    wait(browser, lambda: latest(browser, "input:query") == "danish")
    advance(browser, playground, session, 500)
    advance(browser, playground, session, 1000)
    wait(browser, lambda: "Danish" in latest(browser, "results"))
    drawn = row(browser, "results")
    inner = [glyph for lane in drawn["lanes"] if lane["kind"] == "inner" for glyph in lane["glyphs"]]
    assert all(glyph["source"] == "results·search" for glyph in inner)
    starts = [glyph for glyph in inner if glyph["mark"] == "^"]
    assert len(starts) == 2, inner
    first, second = starts[0]["sub"], starts[1]["sub"]
    of_first = [glyph for glyph in inner if glyph["sub"] == first or first in (glyph["label"] or "")]
    assert [glyph["mark"] for glyph in of_first] == ["^", "!"], "the first search: begun, then disposed, no answer"
    assert "began at 0.5 s" in of_first[0]["label"] and "disposed at 1 s" in of_first[1]["label"]
    results = [glyph for lane in drawn["lanes"] if lane["kind"] == "main" for glyph in lane["glyphs"] if not glyph["mark"]]
    assert results and of_first[1]["x"] < min(glyph["x"] for glyph in results), "ended before any result"
    assert any(glyph["completed"] for glyph in inner), "the second search answered and completed"
    check_diagram(browser)

    # Pointing at the result lights up, across lanes, what its query caused in the inner lanes.
    result = browser.find_element(By.CSS_SELECTOR, '.glyph[data-stream="results"]:not(.mark):not([data-source])')
    if size[0] >= 1280:
        ActionChains(browser).move_to_element(result).perform()
    else:  # focusing it does the same, where the row labels would cover the pointer's way
        browser.execute_script("arguments[0].focus()", result)
    wait(browser, lambda: any(glyph["related"] and glyph["source"] for lane in row(browser, "results")["lanes"]
                              for glyph in lane["glyphs"]))
    inner = {(glyph["sub"], glyph["mark"]): glyph for lane in row(browser, "results")["lanes"] if lane["kind"] == "inner"
             for glyph in lane["glyphs"] if glyph["mark"]}
    # The danish search, and the cancelling of the swedish one, which the danish query caused;
    # not the swedish search's start.
    assert inner[(second, "^")]["related"] and inner[(first, "!")]["related"]
    assert not inner[(first, "^")]["related"]
    browser.save_screenshot(str(ARTIFACTS / f"lanes-search-{size[0]}px.png"))
    check_console(browser)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_take_one_lets_go_of_its_source_at_the_first_value(browser, make_playground, sized, size):
    """`take(1)` disposes its source right after the first value: the source's lane reads
    `^`, `a`, `!`, the `!` at the value's time, beside the marble, not on it; the marks are
    reached by keyboard in time order, each saying its stream, subscription and time."""
    playground = make_playground(fast=False)
    sized(*size)
    session = run_program(browser, playground, 'src = marbles("-a-b-c|")\nfirst = src.take(1)\n')
    advance(browser, playground, session, 200)
    wait(browser, lambda: latest(browser, "first") == "completed")
    [lane] = main_lanes(browser, "src")
    kinds = [glyph["mark"] or glyph["label"].split(": ")[1].split(" at ")[0] for glyph in lane["glyphs"]]
    assert kinds == ["^", "a", "!"], kinds
    start, value, end = lane["glyphs"]
    assert "began at 0 s" in start["label"] and "at 0.1 s" in value["label"] and "disposed at 0.1 s" in end["label"]
    assert value["x"] < end["x"] <= value["x"] + 23, "beside the marble it followed"
    check_diagram(browser)

    glyph = browser.find_element(By.CSS_SELECTOR, '.glyph.mark-subscribed[data-stream="src"]')
    browser.execute_script("arguments[0].focus()", glyph)
    said = [browser.switch_to.active_element.get_attribute("aria-label")]
    for _ in range(2):
        browser.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
        said.append(browser.switch_to.active_element.get_attribute("aria-label"))
    assert said[0].startswith("src: subscription") and "began at 0 s" in said[0]
    assert said[1].startswith("src: a at 0.1 s")
    assert said[2].startswith("src: subscription") and "disposed at 0.1 s" in said[2]
    assert browser.find_element(By.ID, "marble-detail").text == said[2]
    browser.save_screenshot(str(ARTIFACTS / f"lanes-take-{size[0]}px.png"))
    check_console(browser)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_many_lanes_and_inner_lanes_stay_bounded_legible_and_accessible(browser, make_playground, sized, size):
    """An interval read three times, unfolded, and a flattening whose every value makes an inner
    subscription, after more than 200 events: every lane's glyphs stand apart, the inner lanes
    take at most three tracks, and axe finds nothing serious."""
    playground = make_playground(fast=False)
    sized(*size)
    program = ("t = interval(0.1s).take(60)\na = t.map { $0 * 2 }\nb = t.map { $0 * 3 }\nc = t.map { $0 * 4 }\n"
               "inner = t.flatMap(.merge) { timer(after: 0.25s).map { _ in 1 } }\n")
    session = run_program(browser, playground, program)
    advance(browser, playground, session, 7000)
    wait(browser, lambda: latest(browser, "inner") == "completed")
    status, info = playground.json("GET", f"/api/sessions/{session}")
    assert status == 200 and info["subscriptions"]["t"]["subscriptions"] == 4
    assert info["subscriptions"]["inner·timer"]["subscriptions"] == 60
    counted = browser.execute_script(
        "return [...document.querySelectorAll('#streams .count')].map((node) => parseInt(node.textContent, 10))")
    assert sum(counted) > 200, counted
    wait(browser, lambda: row(browser, "t")["toggle"] is not None)
    assert row(browser, "t")["toggle"]["text"] == "×4"
    toggle = browser.find_element(By.CSS_SELECTOR, 'li.stream[data-stream="t"] .fold-toggle')
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", toggle)
    toggle.click()
    wait(browser, lambda: len(main_lanes(browser, "t")) == 4)
    inner = [lane for lane in row(browser, "inner")["lanes"] if lane["kind"] == "inner"]
    assert 1 <= len(inner) <= 3, "overlapping inner subscriptions packed onto at most three tracks"
    check_diagram(browser)
    browser.save_screenshot(str(ARTIFACTS / f"lanes-many-{size[0]}px.png"))

    from selenium_axe_python import Axe
    axe = Axe(browser)
    axe.inject()
    serious = [v for v in axe.run()["violations"] if v["impact"] in ("serious", "critical")]
    assert not serious, [(v["id"], v["help"], [n["target"] for n in v["nodes"]][:3]) for v in serious]
    check_console(browser)


LAYOUT_RULES = """
const done = arguments[arguments.length - 1];
import('/diagram/diagram-lanes.js').then((lanes) => {
  const ev = (seq, kind, t, sub, value) => ({ seq, kind, t, sub, value, stream: 's' });
  const place = (events) => lanes.placeGlyphs(events, 1, 28).map((g) => [g.mark ?? g.events.map((e) => e.kind).join('+'), Math.round(g.x)]);
  const subscriptions = (events) => lanes.subscriptionsOf(events);
  const retry = [ev(1, 'subscribed', 0, 2), ev(2, 'error', 300, 2, {}), ev(3, 'subscribed', 300, 3), ev(4, 'disposed', 300, 2),
                 ev(5, 'next', 400, 3, 'a')];
  const twin = [ev(1, 'subscribed', 0, 1), ev(2, 'subscribed', 0, 2), ev(3, 'next', 100, 1, 'x'), ev(4, 'next', 100, 2, 'x')];
  const inner = [1, 2, 3, 4, 5].map((n) => ev(n, 'subscribed', n * 100, 10 + n));
  // A switchToLatest's inner subscriptions, each disposed as the next begins.
  const switched = [0, 1, 2].flatMap((n) => [ev(2 * n + 1, 'subscribed', n * 100, 20 + n), ev(2 * n + 2, 'disposed', (n + 1) * 100, 20 + n)]);
  done({
    startBeforeValue: place([ev(1, 'subscribed', 0, 1), ev(2, 'next', 0, 1, 'a')]),
    endAfterValue: place([ev(1, 'next', 100, 1, 'a'), ev(2, 'disposed', 100, 1)]),
    marksWithNoRoom: place([ev(1, 'next', 0, 1, 'a'), ev(2, 'disposed', 10, 1), ev(3, 'subscribed', 10, 2), ev(4, 'next', 20, 2, 'b')]),
    retryTracks: lanes.packTracks(subscriptions(retry), Infinity).tracks.map((track) => track.map((s) => s.sub)),
    folded: lanes.rowLanes(twin, []).lanes.map((lane) => lane.count),
    unfolded: lanes.rowLanes(twin, [], { unfolded: true }).lanes.map((lane) => lane.count),
    differing: lanes.rowLanes([...twin.slice(0, 3), ev(4, 'next', 100, 2, 'y')], []).lanes.map((lane) => lane.count),
    endToEnd: lanes.rowLanes([], switched).lanes.map((lane) => lane.subscriptions.map((s) => s.sub)),
    takingTurns: lanes.rowLanes([], switched, { apartMs: 28 }).lanes.map((lane) => lane.subscriptions.map((s) => s.sub)),
    inner: (() => { const model = lanes.rowLanes([], inner);
      return { tracks: model.lanes.map((lane) => lane.subscriptions.map((s) => s.sub)), hidden: model.hidden }; })(),
  });
});
"""


def test_the_lane_layout_rules(browser, playground):
    """The pure rules of diagram-lanes.js, run in the page's own module: marks beside the values
    they precede or follow, stacked only when there is no room; a retry's subscriptions end to
    end on one track; identical tracks folded unless unfolded; overlapping inner subscriptions on
    at most three tracks, the oldest live ones left out; inner ones end to end taking turns."""
    browser.get(f"{playground.url}/")
    rules = browser.execute_async_script(LAYOUT_RULES)
    assert rules["startBeforeValue"] == [["subscribed", -22], ["next", 0]]
    assert rules["endAfterValue"] == [["next", 100], ["disposed", 122]]
    assert rules["marksWithNoRoom"] == [["next+disposed+subscribed+next", 0]], "one stack: nothing overlaps"
    assert rules["retryTracks"] == [[2, 3]]
    assert rules["folded"] == [2] and rules["unfolded"] == [1, 1] and rules["differing"] == [1, 1]
    assert rules["inner"] == {"tracks": [[13], [14], [15]], "hidden": 2}
    # Inner subscriptions that follow each other at once take turns on two tracks, each `^` joined
    # to its own `!`, rather than `^!^!^!` on one.
    assert rules["endToEnd"] == [[20, 21, 22]]
    assert rules["takingTurns"] == [[20, 22], [21]]
