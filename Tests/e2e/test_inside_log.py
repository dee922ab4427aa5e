"""RAC's narration in the event log and for screen readers (issue #74), in Chromium at 1280 and
375 px: while the Inside panel is open on a live virtual-clock search, each change of its objects
comes as a line of the event log ("RAC's objects" in its filter), the playground's probes left out,
and the swap of switchToLatest's serial disposable is read by the live region; closed, the lines
stop."""
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from test_inside import STEPS
from test_lessons import axe_clean
from test_page import DESKTOP, PHONE, check_console, wait
from test_recording_rows import virtual_search

import pytest


def inside_lines(browser):
    return [item.text for item in browser.find_elements(By.CSS_SELECTOR, "#log li.log-inside")]


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1280", "375"])
def test_the_changes_are_lines_of_the_log_and_the_swap_is_said(browser, playground, size):
    session = virtual_search(playground, STEPS[:3])  # Java typed at 180 ms, not yet through
    browser.set_window_size(*size)
    browser.get("about:blank")
    browser.get_log("browser")
    browser.get(f"{playground.url}/#session={session}")
    wait(browser, lambda: browser.find_element(By.ID, "connection").text.startswith("Live"))
    assert "RAC's objects (Inside)" not in browser.find_element(By.ID, "log-filter").text
    browser.find_element(By.ID, "inside-toggle").click()
    wait(browser, lambda: browser.find_element(By.ID, "inside-summary").text.startswith("At "))
    wait(browser, lambda: "RAC's objects (Inside)" in browser.find_element(By.ID, "log-filter").text)
    browser.find_element(By.ID, "advance-500").click()  # through 330 ms, where Java comes through
    wait(browser, lambda: any("switchToLatest" in line for line in inside_lines(browser)))
    swap = next(line for line in inside_lines(browser) if "switchToLatest" in line)
    assert swap.startswith("330 ms · RAC · switchToLatest's #") and "disposed before the new one is subscribed" in swap, swap
    assert not [line for line in inside_lines(browser) if "the playground's probe" in line]
    wait(browser, lambda: "switchToLatest" in browser.find_element(By.ID, "announcer").text)
    assert browser.find_element(By.ID, "announcer").text.startswith("Inside: ")
    # The filter shows the changes alone.
    Select(browser.find_element(By.ID, "log-filter")).select_by_visible_text("RAC's objects (Inside)")
    shown = [item for item in browser.find_elements(By.CSS_SELECTOR, "#log li") if item.is_displayed()]
    assert shown and all("log-inside" in item.get_attribute("class") for item in shown)
    axe_clean(browser)
    # Closed, no more lines come.
    Select(browser.find_element(By.ID, "log-filter")).select_by_index(0)
    browser.find_element(By.ID, "inside-toggle").click()
    before = len(inside_lines(browser))
    # A new search makes new objects: its events come to the log, its changes do not.
    playground.send(session, "query", "Jade")
    playground.send(session, "advance", "500")
    wait(browser, lambda: any("Jade" in item.text for item in browser.find_elements(By.CSS_SELECTOR, "#log li")))
    wait(browser, lambda: any("Jade" in item.text and "throttled" in item.text for item in browser.find_elements(By.CSS_SELECTOR, "#log li")))
    assert len(inside_lines(browser)) == before
    assert "RAC's objects (Inside)" not in browser.find_element(By.ID, "log-filter").text
    check_console(browser)
