"""The time scrubber in Chromium: the session's diagram, row labels and event log at an instant
(docs/PAGE.md, "The time scrubber"), dragged and stepped with the keyboard."""
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from test_lessons import axe_clean
from test_page import DESKTOP, PHONE, check_console, check_layout, latest, wait
from test_recording_rows import virtual_search


def labels(browser, stream):
    """What each glyph drawn on `stream`'s row says."""
    return browser.execute_script("""
        return [...document.querySelectorAll(`#diagram .glyph[data-stream="${arguments[0]}"]`)].map((g) => g.getAttribute('aria-label'));""", stream)


def lane_states(browser, stream):
    """Each inner lane of `stream`'s row: its state at the instant, and the subscriptions it shows."""
    return browser.execute_script("""
        return [...document.querySelectorAll(`#diagram g.row[data-stream="${arguments[0]}"] .lane-inner`)].map((lane) =>
          [lane.dataset.instant ?? null, [...new Set([...lane.querySelectorAll('.glyph')].map((g) => g.dataset.sub))]]);""", stream)


def scrub_to(browser, ms):
    """What a drag does: the range's value moves and it says so."""
    browser.execute_script("""
        const range = document.getElementById('scrub');
        range.value = arguments[0];
        range.dispatchEvent(new Event('input', {bubbles: true}));""", ms)


def shown(browser, stream, value):
    """Whether a glyph of `stream`'s row shows `value` (alone or in a stack)."""
    return any(f"{value} at " in label for label in labels(browser, stream))


def test_the_scrubber_shows_the_session_at_an_instant(browser, playground):
    # --throttle-ms 150 --service-latency-ms 200: "Jav" at 0 is throttled through at 150 and searched;
    # "Java" at 180 comes through at 330, when switching to its search disposes of the first (due at 350).
    session = virtual_search(playground, [("type", "Jav"), ("wait", 180), ("type", "Java"), ("wait", 1000)])
    browser.set_window_size(*DESKTOP)
    browser.get(f"{playground.url}/#session={session}")
    wait(browser, lambda: latest(browser, "results") != "—")
    wait(browser, lambda: int(browser.find_element(By.ID, "scrub").get_attribute("max")) >= 530)
    searches = sorted({sub for _, subs in lane_states(browser, "results") for sub in subs})
    assert len(searches) == 2, lane_states(browser, "results")
    first, second = searches

    # Between the two keystrokes, after the first search began: the first keystroke's marbles, not
    # the second's; the first search live; the throttled row's latest value "Jav".
    scrub_to(browser, 160)
    wait(browser, lambda: not shown(browser, "input:query", "Java"))
    assert shown(browser, "input:query", "Jav")
    assert shown(browser, "throttled", "Jav") and not shown(browser, "throttled", "Java")
    states = {subs[0]: state for state, subs in lane_states(browser, "results") if subs}
    assert states.get(first) == "live", states
    assert states.get(second, "later") == "later", states
    assert latest(browser, "throttled") == "Jav"
    wait(browser, lambda: "input:query next Java" not in browser.find_element(By.ID, "log").text)
    assert "input:query next Jav" in browser.find_element(By.ID, "log").text
    assert browser.find_element(By.ID, "scrub-reading").text.startswith("0.16 s")

    # After the switch: the first search ended (disposed, never answered), the second live.
    scrub_to(browser, 340)
    wait(browser, lambda: {subs[0]: state for state, subs in lane_states(browser, "results") if subs}.get(first) == "ended")
    states = {subs[0]: state for state, subs in lane_states(browser, "results") if subs}
    assert states.get(second) == "live", states
    assert latest(browser, "throttled") == "Java"

    # The keyboard steps one event at a time: from 160 the next event is the keystroke "Java".
    scrub_to(browser, 160)
    wait(browser, lambda: not shown(browser, "input:query", "Java"))
    scrubber = browser.find_element(By.ID, "scrub")
    scrubber.send_keys(Keys.ARROW_RIGHT)
    wait(browser, lambda: shown(browser, "input:query", "Java"))
    assert "input:query next Java" in browser.find_element(By.ID, "scrub-reading").text
    assert not shown(browser, "validQuery", "Java")  # the next event, one step on
    scrubber.send_keys(Keys.ARROW_LEFT)
    wait(browser, lambda: not shown(browser, "input:query", "Java"))
    axe_clean(browser)
    for size in (DESKTOP, PHONE):
        check_layout(browser, "scrubber", size)
    browser.set_window_size(*DESKTOP)

    # Back to live: everything again, following time.
    browser.find_element(By.ID, "scrub-live").click()
    wait(browser, lambda: shown(browser, "input:query", "Java") and any("Javanese" in label for label in labels(browser, "results")))
    assert browser.find_element(By.ID, "scrub-reading").text == "live"
    assert browser.find_element(By.ID, "follow").is_selected()
    assert latest(browser, "throttled") == "Java"
    check_console(browser)
