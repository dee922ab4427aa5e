"""The lessons that write RAC as its sources do (#73) — a replay subject through a multicast
connection (lesson 11), a channel's two terminals (16), a callback as `createSignal` (20) —
taken in Chromium at 1280 and 375 px as a learner would: a wrong prediction, then the right one;
a wrong challenge answer, then the solution. Screenshots kept; axe clean; no console errors."""
import pytest

from conftest import ARTIFACTS
from test_lessons import LESSONS, axe_clean, check_challenge, lesson_by_id, open_lesson, predict, screenshot
from test_page import check_console, wait
from selenium.webdriver.common.by import By

# Each lesson with a prediction a learner who misreads it would make.
MISREAD = {
    "replay": "-----(ab)-c-|",  # as if the subject kept every value, as `replay()`'s does
    "two-way-binding": "(eA)-a--a--|",  # as if Grace came back through the model
    "callbacks-into-signals": "-x-----y-------|",  # as if the answers came at the presses
}


@pytest.fixture(scope="module")
def server(request):
    from conftest import start_server
    playground = start_server(request)
    yield playground
    playground.stop()


@pytest.mark.parametrize("width", [1280, 375])
@pytest.mark.parametrize("lesson_id", list(MISREAD))
def test_a_lesson_of_racs_constructs_taken_as_a_learner(browser, server, lesson_id, width):
    lesson = lesson_by_id(lesson_id)
    browser.set_window_size(width, 812 if width == 375 else 800)
    browser.get(f"{server.url}/#learn")
    wait(browser, lambda: len(browser.find_elements(By.CSS_SELECTOR, "#learn-list li")) == len(LESSONS))
    browser.execute_script("localStorage.removeItem('playground.lessons')")
    open_lesson(browser, lesson_id)

    assert predict(browser, MISREAD[lesson_id]).startswith("Not quite")
    assert predict(browser, lesson["expected"][lesson["predict"]]).startswith("Right")
    screenshot(browser, "lesson-result", f"rac-lesson-{lesson_id}-predicted-{width}px.png")

    status = check_challenge(browser, lesson["challenge"]["wrong"][0])
    assert status.get_attribute("data-passed") == "false", status.text
    screenshot(browser, "challenge-task", f"rac-lesson-{lesson_id}-challenge-wrong-{width}px.png")
    status = check_challenge(browser, lesson["challenge"]["solution"])
    assert status.get_attribute("data-passed") == "true", status.text
    screenshot(browser, "challenge-task", f"rac-lesson-{lesson_id}-challenge-passed-{width}px.png")
    if width == 375:
        sizes = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        assert sizes[0] <= sizes[1], f"the page fits a phone: {sizes}"
    axe_clean(browser)
    check_console(browser)
    assert (ARTIFACTS / f"rac-lesson-{lesson_id}-challenge-passed-{width}px.png").exists()
