"""Errors with their reason (#72): where a stream ends with an error, why is written under its `#`,
in a lesson's rows and in the editor's diagram, and a test that can never give a bool is flagged
before it runs. In headless Chromium, at 1280 and 375 px; screenshots in pytest's tmp dir."""
import re

import pytest
from selenium.webdriver.common.by import By

from test_diagram import set_viewport
from test_editor import open_editor, problems, replace_program
from test_lessons import axe_clean, check_challenge, open_lesson
from test_page import check_console, wait

WRONG = "kept = a.filter { $0 % 2 }"
REASON = "filter's closure must give a bool"  # the server's words, its code spans read as text
PROGRAM = f'a = marbles("-1--2-3-6|")\n{WRONG}\n'


@pytest.fixture
def viewport(browser):
    yield lambda width, height: set_viewport(browser, width, height)
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def readable(browser, element):
    """The element is shown, inside the page's width, and its text is not cut off."""
    box = browser.execute_script(
        "const r = arguments[0].getBoundingClientRect();"
        "return [r.left, r.right, innerWidth, arguments[0].scrollWidth - arguments[0].clientWidth];", element)
    assert element.is_displayed()
    assert box[0] >= 0 and box[1] <= box[2], f"{element.text!r} sits outside the page's width: {box}"
    assert box[3] <= 0, f"{element.text!r} is cut off"


@pytest.mark.parametrize("width", [1280, 375])
def test_a_lesson_challenge_that_fails_says_why_under_its_error(browser, playground, viewport, tmp_path, width):
    viewport(width, 900)
    browser.get("about:blank")
    browser.get_log("browser")
    browser.get(f"{playground.url}/#learn")
    open_lesson(browser, "filtering")
    status = check_challenge(browser, WRONG)
    assert status.get_attribute("data-passed") == "false", status.text
    note = browser.find_element(By.CSS_SELECTOR, "#challenge-result .lesson-reason")
    assert note.text.startswith("✕ your kept fails at 100 ms:"), note.text
    # The learner's own line: the check's program has the row `a` on a line before it.
    assert f"line 1, column 17: {REASON}" in note.text, note.text
    lane = browser.find_element(By.CSS_SELECTOR, f'#challenge-result [aria-describedby="{note.get_attribute("id")}"]')
    assert lane.get_attribute("aria-label").startswith("kept, yours: -#"), "the lane that the reason explains points at it"
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", note)
    readable(browser, note)
    axe_clean(browser)
    check_console(browser)
    path = tmp_path / f"lesson-error-reason-{width}px.png"
    browser.save_screenshot(str(path))
    print(f"screenshot: {path}")


@pytest.mark.parametrize("width", [1280, 375])
def test_the_editor_flags_the_test_and_its_run_says_why_under_the_error(browser, playground, viewport, tmp_path, width):
    viewport(width, 900)
    open_editor(browser, playground)
    replace_program(browser, PROGRAM)
    wait(browser, lambda: problems(browser))
    [problem] = problems(browser)
    assert problem.get_attribute("data-line") == "2" and problem.get_attribute("data-column") == "19", problem.text
    assert "must give a bool" in problem.text and "$0 % 2 == 0" in problem.text, "the warning and its hint are shown"
    browser.find_element(By.ID, "run").click()  # a warning: the program still runs
    wait(browser, lambda: browser.find_element(By.ID, "connection").text == "Live")
    listed = '.diagram-failures li[data-stream="kept"]'
    wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, listed) and REASON in browser.find_element(By.CSS_SELECTOR, listed).text)
    item = browser.find_element(By.CSS_SELECTOR, listed)
    assert re.match(rf"✕ kept fails at [\d.]+ s: line 2, column 17: {REASON}$", item.text), item.text
    cross = browser.find_element(By.CSS_SELECTOR, '#diagram .glyph[data-stream="kept"] .error-cross')
    glyph = cross.find_element(By.XPATH, "..")
    assert REASON in glyph.get_attribute("aria-label").replace("`", ""), "a screen reader hears the reason at the cross"
    beside = glyph.find_elements(By.CSS_SELECTOR, ".error-reason")
    # Written beside the cross too, without its place, inside the lanes (whole on both screens here).
    assert [b.text for b in beside] == [REASON], "the reason, without its place"
    right, lanes = browser.execute_script(
        "return [arguments[0].getBoundingClientRect().right, document.querySelector('#diagram .lanes').getBoundingClientRect().right]", beside[0])
    assert right <= lanes, f"the reason beside the cross runs out of its lane: {right} > {lanes}"
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", item)
    readable(browser, item)
    check_console(browser)
    path = tmp_path / f"editor-error-reason-{width}px.png"
    browser.save_screenshot(str(path))
    print(f"screenshot: {path}")
