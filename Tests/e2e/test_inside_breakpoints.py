"""Breakpoints (issue #74) in Chromium at 1280 and 375 px: "stop when switchToLatest's serial
disposable swaps" set from the Inside panel stops a virtual-clock session's clock right after the
swap — Play pauses there, the server says so — and a step goes on; on a kept run, "Go to the next
stop" moves the scrubber to each swap in turn.

The search of test_inside.py: "Jav" at 0 is throttled through at 150, where the switch takes its
first inner subscription; "Java" at 180 comes through at 330, where the switch swaps the Jav
search's subscription for the Java search's; at 530 the Java search answers and ends, and the switch
lets go of it (a swap to nothing)."""
import json

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import new_browser
from test_inside import STEPS, open_inside
from test_lessons import axe_clean
from test_page import DESKTOP, PHONE, check_console, check_layout, wait
from test_recording_rows import virtual_search

JSON = {"Content-Type": "application/json"}


def choose_the_switch(browser):
    """Adds the breakpoint "the switch's serial disposable swaps" from the panel's choices."""
    choice = Select(browser.find_element(By.ID, "inside-break-choice"))
    wait(browser, lambda: any("(SwitchCore) swaps" in option.text for option in choice.options))
    text = next(option.text for option in choice.options if "(SwitchCore) swaps" in option.text)
    choice.select_by_visible_text(text)
    browser.find_element(By.ID, "inside-break-add").click()
    wait(browser, lambda: text in browser.find_element(By.ID, "inside-break-list").text)
    return text


def reading(browser):
    return browser.find_element(By.ID, "virtual-time").text


def stop_at_the_swap(browser, playground, size, name):
    # Typed, but the clock not yet where Java comes through: the page's Play takes it there.
    session = virtual_search(playground, STEPS[:3])
    browser.set_window_size(*size)
    browser.get("about:blank")
    browser.get_log("browser")
    browser.get(f"{playground.url}/#session={session}")
    wait(browser, lambda: browser.find_element(By.ID, "connection").text.startswith("Live"))
    browser.find_element(By.ID, "inside-toggle").click()
    wait(browser, lambda: browser.find_element(By.ID, "inside-summary").text.startswith("At "))
    text = choose_the_switch(browser)
    status, answer = playground.json("GET", f"/api/sessions/{session}/breakpoints")
    assert status == 200 and answer["breakpoints"] and answer["breakpoints"][0]["on"] == "swapped", answer
    browser.find_element(By.ID, "play").click()
    wait(browser, lambda: browser.find_element(By.ID, "inside-break-status").text.startswith("Stopped at 0.33 s"))
    status_line = browser.find_element(By.ID, "inside-break-status").text
    assert text in status_line and "(breakpoint 1)" in status_line, status_line
    assert browser.find_element(By.ID, "play").get_attribute("aria-pressed") == "false", "Play paused at the stop"
    wait(browser, lambda: reading(browser) == "330 ms")
    status, answer = playground.json("GET", f"/api/sessions/{session}/breakpoints")
    assert answer["hit"]["t"] == 330 and answer["virtualTime"] == 330, answer
    # The panel, live, shows the swap just made.
    wait(browser, lambda: "swapped" in browser.find_element(By.ID, "inside-trees").text)
    check_layout(browser, name, size)
    axe_clean(browser)
    # A step goes on from the stop, to the next swap: at 530 the Java search answers and ends, and
    # the switch lets go of it. From there nothing swaps: the clock goes where it is sent.
    browser.find_element(By.ID, "advance-500").click()
    wait(browser, lambda: browser.find_element(By.ID, "inside-break-status").text.startswith("Stopped at 0.53 s"))
    wait(browser, lambda: reading(browser) == "530 ms")
    browser.find_element(By.ID, "advance-100").click()
    wait(browser, lambda: reading(browser) == "630 ms")
    status, answer = playground.json("GET", f"/api/sessions/{session}/breakpoints")
    assert answer["hit"] is None and answer["virtualTime"] == 630, answer
    assert browser.find_element(By.ID, "inside-break-status").text == "The clock stops at the next breakpoint met."
    check_console(browser)


def test_a_breakpoint_stops_the_virtual_clock_at_the_swap(browser, playground):
    stop_at_the_swap(browser, playground, DESKTOP, "inside-breakpoint")


def test_a_breakpoint_stops_the_clock_at_375_px(browser, playground):
    stop_at_the_swap(browser, playground, PHONE, "inside-breakpoint-phone")


def test_a_kept_runs_scrubber_jumps_to_each_stop(browser, playground):
    session = virtual_search(playground, STEPS)
    status, kept = playground.json("POST", f"/api/sessions/{session}/recording", json.dumps({"title": "Jav then Java"}), JSON)
    assert status == 201, kept
    fresh = new_browser()
    try:
        open_inside(fresh, playground, kept["url"], DESKTOP, ready="Replay:")
        choose_the_switch(fresh)
        jump = fresh.find_element(By.ID, "inside-break-next")
        assert jump.is_displayed()
        for ms in (150, 330, 530):
            jump.click()
            wait(fresh, lambda: fresh.find_element(By.ID, "scrub").get_attribute("value") == str(ms))
            wait(fresh, lambda: fresh.find_element(By.ID, "inside-summary").text.startswith(f"At {ms / 1000:g} s"))
            assert fresh.find_element(By.ID, "inside-break-status").text.startswith(f"At {ms / 1000:g} s: "), ms
        # 530 is the run's last event, its end: the next stop is the first again.
        jump.click()
        wait(fresh, lambda: fresh.find_element(By.ID, "inside-break-status").text.startswith("From the start again: At 0.15 s: "))
        assert fresh.find_element(By.ID, "scrub").get_attribute("value") == "150"
        check_layout(fresh, "inside-kept-stops", DESKTOP)
        check_console(fresh)
    finally:
        fresh.quit()
