"""Lanes and objects point at each other (issue #74), in Chromium at 1280 and 375 px: a `^`, `!` or
marble pointed at on the diagram selects its subscription's objects in the Inside panel; an object
pointed at or reached by the arrow keys there lights its lane on the diagram. At the end of a kept
run, what nothing can let go is marked a leak — the search has none; a graph with the cycle a
merge's finished inner subscription once made (its serial disposable and its subscriber holding
each other) is marked so.

The search is the one of test_inside.py: at 330 ms the Jav search (`results·search`, subscription
7) is disposed and the Java search (subscription 8) subscribed."""
import json

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import new_browser
from test_inside import STEPS, open_inside
from test_lessons import axe_clean
from test_page import DESKTOP, PHONE, check_console, check_layout, wait
from test_recording_rows import virtual_search
from test_scrubber import scrub_to

JSON = {"Content-Type": "application/json"}


def mark(browser, kind, stream, sub):
    return browser.find_element(By.CSS_SELECTOR, f'.lanes-svg .glyph.mark-{kind}[data-source="{stream}"][data-sub="{sub}"]')


def selected(browser):
    return [(item.get_attribute("data-stream"), item.get_attribute("data-sub"))
            for item in browser.find_elements(By.CSS_SELECTOR, "#inside-trees li.inside-selected")]


def lit(browser):
    """The (stream, sub) of every glyph and line lit on the diagram."""
    return {(node.get_attribute("data-source") or node.get_attribute("data-stream"), node.get_attribute("data-sub"))
            for node in browser.find_elements(By.CSS_SELECTOR, ".lanes-svg.sub-lighting .sub-lit")}


def at_the_swap(browser, playground, size):
    session = virtual_search(playground, STEPS)
    open_inside(browser, playground, f"/#session={session}", size)
    scrub_to(browser, 330)
    wait(browser, lambda: browser.find_element(By.ID, "inside-summary").text.startswith("At 0.33 s"))
    return session


def test_a_lanes_marks_select_its_objects_and_an_object_lights_its_lane(browser, playground):
    at_the_swap(browser, playground, DESKTOP)
    # The Java search's ^ selects its subscriber; the Jav search's ! names its, disposed by now.
    ActionChains(browser).move_to_element(mark(browser, "subscribed", "results·search", 8)).perform()
    wait(browser, lambda: selected(browser) == [("results·search", "8")])
    selection = browser.find_element(By.ID, "inside-selection").text
    assert selection.startswith("Selected from the diagram: results·search · subscription 8, its #"), selection
    assert "RACPassthroughSubscriber" in selection
    head = browser.find_element(By.CSS_SELECTOR, "#inside-trees li.inside-selected > .inside-head")
    assert browser.execute_script("""
        const box = document.getElementById('inside-trees').getBoundingClientRect(), at = arguments[0].getBoundingClientRect();
        return at.top >= box.top && at.bottom <= box.bottom;""", head), "the selected object is scrolled to"
    check_layout(browser, "inside-lane-selects", DESKTOP)
    ActionChains(browser).move_to_element(mark(browser, "disposed", "results·search", 7)).perform()
    wait(browser, lambda: "results·search · subscription 7" in browser.find_element(By.ID, "inside-selection").text)
    assert "(disposed)" in browser.find_element(By.ID, "inside-selection").text or "(freed)" in browser.find_element(By.ID, "inside-selection").text

    # The throttled stream's subscriber pointed at lights its lane, and only it.
    node = browser.find_element(By.CSS_SELECTOR, '#inside-trees li.inside-node[data-stream="throttled"] > .inside-head')
    ActionChains(browser).move_to_element(node).perform()
    wait(browser, lambda: lit(browser) == {("throttled", "2")})
    assert browser.find_elements(By.CSS_SELECTOR, '.lanes-svg .lane-line.sub-lit[data-stream="throttled"]'), "its line too"
    dimmed = browser.execute_script("""
        return [...document.querySelectorAll('.lanes-svg .glyph:not(.sub-lit)')].every(g => getComputedStyle(g).opacity < 0.5);""")
    assert dimmed, "the other glyphs recede"
    check_layout(browser, "inside-object-lights", DESKTOP)
    check_console(browser)


def test_a_marks_tap_selects_and_the_arrow_keys_light_each_lane_at_375_px(browser, playground):
    at_the_swap(browser, playground, PHONE)
    # At 375 px too, a lane's ^ (tapped: focused) selects its subscriber.
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", mark(browser, "subscribed", "results·search", 8))
    mark(browser, "subscribed", "results·search", 8).click()
    wait(browser, lambda: selected(browser) == [("results·search", "8")])
    first = browser.find_element(By.CSS_SELECTOR, "#inside-trees .inside-head")
    assert first.get_attribute("tabindex") == "0", "one tab stop in the trees"
    browser.execute_script("arguments[0].focus()", first)
    seen = set()
    heads = browser.find_elements(By.CSS_SELECTOR, "#inside-trees .inside-head")
    for _ in range(len(heads) - 1):
        browser.switch_to.active_element.send_keys(Keys.ARROW_DOWN)
        # The lane is the object's own, or that of the nearest object holding it that has one.
        lane = browser.execute_script(
            "const item = document.activeElement.closest('li[data-stream]'); return item && [item.dataset.stream, item.dataset.sub]")
        if lane is None:
            continue
        lane = tuple(lane)
        wait(browser, lambda: lit(browser) == {lane} or not diagram_has(browser, lane))
        seen.add(lane)
    assert ("throttled", "2") in seen and ("results·search", "8") in seen, seen
    assert browser.switch_to.active_element.get_attribute("tabindex") == "0", "the tab stop moved with the focus"
    browser.switch_to.active_element.send_keys(Keys.HOME)
    assert browser.switch_to.active_element == first
    check_layout(browser, "inside-keys-phone", PHONE)
    axe_clean(browser)
    browser.switch_to.active_element.send_keys(Keys.TAB)
    wait(browser, lambda: not browser.find_elements(By.CSS_SELECTOR, ".lanes-svg.sub-lighting"))
    check_console(browser)


def diagram_has(browser, lane):
    stream, sub = lane
    return bool(browser.find_elements(By.CSS_SELECTOR, f'.lanes-svg .glyph[data-sub="{sub}"]'))


LEAK = """
  const real = window.fetch;
  window.fetch = async (...args) => {
    const answer = await real(...args);
    if (!String(args[0]).includes('/inside')) return answer;
    const graph = await answer.json();
    const top = Math.max(...graph.nodes.map((node) => node.id));
    graph.nodes.push(
      {id: top + 1, kind: 'serialDisposable', racClass: 'RACSerialDisposable', type: 'SerialDisposable', created: 330, holds: [top + 2]},
      {id: top + 2, kind: 'subscriber', racClass: 'RACPassthroughSubscriber', type: 'Subscriber<Array<String>, ServiceError>',
       created: 330, holds: [top + 1], stream: 'results·search', subscription: 7});
    return new Response(JSON.stringify(graph), {status: 200, headers: {'Content-Type': 'application/json'}});
  };"""


def test_a_kept_run_has_no_leak_at_its_end_and_a_cycle_would_be_marked(browser, playground):
    session = virtual_search(playground, STEPS)
    status, kept = playground.json("POST", f"/api/sessions/{session}/recording", json.dumps({"title": "Jav then Java"}), JSON)
    assert status == 201, kept
    fresh = new_browser()
    try:
        open_inside(fresh, playground, kept["url"], DESKTOP, ready="Replay:")
        summary = fresh.find_element(By.ID, "inside-summary").text
        assert "leak" not in summary, summary
        assert not fresh.find_elements(By.CSS_SELECTOR, "#inside-trees .inside-leak")
        for size, name in ((DESKTOP, "inside-leak"), (PHONE, "inside-leak-phone")):
            open_inside(fresh, playground, kept["url"], size, ready="Replay:")
            fresh.find_element(By.ID, "inside-toggle").click()  # closed, to be read again with the cycle
            fresh.execute_script(LEAK)
            fresh.find_element(By.ID, "inside-toggle").click()
            wait(fresh, lambda: len(fresh.find_elements(By.CSS_SELECTOR, "#inside-trees li.inside-leak")) == 2)
            summary = fresh.find_element(By.ID, "inside-summary").text
            assert "2 leaks: alive at the run's end, though nothing can let them go." in summary, summary
            why = [node.text for node in fresh.find_elements(By.CSS_SELECTOR, "#inside-trees li.inside-leak .inside-why")]
            assert why and all(text.startswith("held only by a cycle") for text in why), why
            marks = fresh.find_elements(By.CSS_SELECTOR, "#inside-trees li.inside-leak > .inside-head .inside-mark-leak")
            assert len(marks) == 2
            check_layout(fresh, name, size)
            axe_clean(fresh)
            # Before the run's end the same objects are not called leaks: work still to come may free them.
            scrub_to(fresh, 400)
            wait(fresh, lambda: fresh.find_element(By.ID, "inside-summary").text.startswith("At 0.4 s"))
            assert not fresh.find_elements(By.CSS_SELECTOR, "#inside-trees li.inside-leak")
        check_console(fresh)
    finally:
        fresh.quit()

