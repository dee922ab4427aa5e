"""Lessons written on the page (docs/LESSONS.md, the lesson writer at `#lessons/new`): a mistake
caught as it is typed, fixed, the answers filled from a real run, previewed as a learner, kept by
a link and passed in a fresh browser; a copy of a course lesson; a course of a built-in lesson and
a lesson link, with its progress; "My links" lists them. Axe clean, in Chromium."""
import json

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import ARTIFACTS, new_browser
from test_lessons import axe_clean, check_challenge, predict
from test_page import check_console, wait

FIELDS = {
    "writer-lesson-title": "The first two",
    "writer-rac": "take:",
    "writer-explanation": "`take(2)` lets the first two values through, then completes.\n\nWhat does `out` send?",
    "writer-inputs": "a: -a-b-c|",
    "writer-program": "out = a.tak(2)",  # the mistake, caught as it is typed
    "writer-predict": "out",
    "writer-result": "a and b, then the completion at once with b: -a-(b|).",
    "writer-task": "Change `out` so that it sends only the first value.",
    "writer-challenge-inputs": "a: -x-y|",
    "writer-solution": "out = a.take(1)",
    "writer-wrong": "out = a.take(2)",
}


def field(browser, name):
    return browser.find_element(By.ID, name)


def problem(browser, name):
    line = browser.find_element(By.ID, f"{name}-problem")
    return line.text if line.is_displayed() else ""


def write_lesson(browser, url):
    browser.get(f"{url}/#lessons/new")
    browser.execute_script("localStorage.clear()")
    browser.refresh()
    wait(browser, lambda: field(browser, "writer").is_displayed())
    for name, text in FIELDS.items():
        box = field(browser, name)
        box.clear()
        box.send_keys(text)
    wait(browser, lambda: "did you mean `take`?" in problem(browser, "writer-program"))
    assert field(browser, "writer-program").get_attribute("aria-invalid") == "true"
    assert field(browser, "writer-id").get_attribute("value") == "the-first-two", "the id follows the title"
    program = field(browser, "writer-program")
    program.send_keys(Keys.BACK_SPACE * 5, "ake(2)")
    wait(browser, lambda: problem(browser, "writer-program") == "" and "no answer for `out`" in problem(browser, "writer-expected"))
    field(browser, "writer-fill").click()
    wait(browser, lambda: field(browser, "writer-expected").get_attribute("value") == "out: -a-(b|)")
    assert field(browser, "writer-challenge-expected").get_attribute("value") == "out: -(x|)"
    summary = field(browser, "writer-summary")
    wait(browser, lambda: summary.text.startswith("Checked: the lesson keeps every rule"))


def test_a_lesson_is_written_previewed_kept_and_passed_in_a_fresh_browser(browser, playground):
    browser.set_window_size(1280, 900)
    browser.get("about:blank")
    browser.get_log("browser")
    write_lesson(browser, playground.url)
    axe_clean(browser)
    browser.save_screenshot(str(ARTIFACTS / "lesson-writer-1280.png"))
    field(browser, "writer-preview").click()
    wait(browser, lambda: field(browser, "lesson").is_displayed() and field(browser, "lesson-title").text == "The first two")
    assert field(browser, "lesson-preview").is_displayed()
    assert predict(browser, "-a-(b|)").startswith("Right")
    axe_clean(browser)
    field(browser, "lesson-preview").find_element(By.TAG_NAME, "a").click()
    wait(browser, lambda: field(browser, "writer").is_displayed())
    assert field(browser, "writer-expected").get_attribute("value") == "out: -a-(b|)", "the draft is kept"
    field(browser, "writer-keep").click()
    status = field(browser, "writer-status")
    wait(browser, lambda: status.text.startswith("Kept:"))
    link = status.find_element(By.TAG_NAME, "a").get_attribute("href")
    lesson_id = link.rsplit("/", 1)[1]
    status_code, read = playground.json("GET", f"/api/links/{lesson_id}")
    assert status_code == 200 and read["kind"] == "lesson" and json.loads(read["content"])["program"] == "out = a.take(2)"
    # An edit is a new version, from the first.
    field(browser, "writer-result").send_keys(" Then nothing.")
    field(browser, "writer-keep").click()
    wait(browser, lambda: status.text.startswith("Kept as a new version"))
    assert f"from /s/{lesson_id}" in status.text
    newer = status.find_element(By.TAG_NAME, "a").get_attribute("href")
    check_console(browser)
    browser.get(newer)
    wait(browser, lambda: field(browser, "lesson").is_displayed() and field(browser, "lesson-from").text == f"A new version of /s/{lesson_id}.")

    fresh = new_browser()
    try:
        fresh.get(link)
        wait(fresh, lambda: field(fresh, "lesson").is_displayed() and field(fresh, "lesson-title").text == "The first two")
        assert not field(fresh, "lesson-preview").is_displayed()
        assert predict(fresh, "-a-(b|)").startswith("Right")
        assert check_challenge(fresh, "out = a.take(2)").get_attribute("data-passed") == "false"
        assert check_challenge(fresh, "out = a.take(1)").get_attribute("data-passed") == "true"
        axe_clean(fresh)
        fresh.save_screenshot(str(ARTIFACTS / "lesson-link-passed-1280.png"))
        check_console(fresh)
    finally:
        fresh.quit()

    # A course of a built-in lesson and the lesson link: its list, then its progress.
    browser.get(f"{playground.url}/#learn")
    wait(browser, lambda: browser.find_elements(By.ID, f"course-choice-{lesson_id}"))
    browser.find_element(By.CSS_SELECTOR, "#course-maker summary").send_keys(Keys.ENTER)
    for choice in ("reading-marbles", lesson_id):
        browser.find_element(By.ID, f"course-choice-{choice}").send_keys(Keys.SPACE)
    browser.find_element(By.ID, "course-title").send_keys("Marbles, then take", Keys.ENTER)
    course_status = field(browser, "course-status")
    wait(browser, lambda: course_status.text.startswith("Kept as"))
    course = course_status.find_element(By.TAG_NAME, "a").get_attribute("href")
    browser.get(course)
    listed = lambda: [item.get_attribute("data-lesson") for item in browser.find_elements(By.CSS_SELECTOR, "#learn-list li")]
    wait(browser, lambda: listed() == ["reading-marbles", lesson_id])
    state = lambda key: browser.find_element(By.CSS_SELECTOR, f'#learn-list li[data-lesson="{key}"]').text
    assert state(lesson_id) == "The first two — not started"
    # The course's own maker starts from it and keeps a new version, from it.
    summary = field(browser, "course-maker-summary")
    assert summary.text.startswith("Change this course")
    summary.send_keys(Keys.ENTER)
    order = lambda: [item.get_attribute("data-lesson") for item in browser.find_elements(By.CSS_SELECTOR, "#course-order li")]
    wait(browser, lambda: order() == ["reading-marbles", lesson_id])
    assert "The first two (a lesson link)" in field(browser, "course-order").text
    browser.find_element(By.CSS_SELECTOR, f'#course-order li[data-lesson="{lesson_id}"] button').send_keys(Keys.ENTER)  # Up
    wait(browser, lambda: order() == [lesson_id, "reading-marbles"])
    field(browser, "course-keep").click()
    course_id = course.rsplit("/", 1)[1]
    wait(browser, lambda: field(browser, "course-status").text.startswith(f"Kept as a new version (from /s/{course_id})"))
    newer_course = field(browser, "course-status").find_element(By.TAG_NAME, "a").get_attribute("href")
    browser.find_element(By.CSS_SELECTOR, f'#learn-list li[data-lesson="{lesson_id}"] a').click()
    wait(browser, lambda: field(browser, "lesson-title").text == "2. The first two")
    assert check_challenge(browser, "out = a.take(1)").get_attribute("data-passed") == "true"
    browser.execute_script("history.back()")
    wait(browser, lambda: listed() == ["reading-marbles", lesson_id] and field(browser, "learn-path").is_displayed())
    assert state(lesson_id) == "The first two — predicted, challenge left" or state(lesson_id) == "The first two — done"
    browser.get(newer_course)
    wait(browser, lambda: listed() == [lesson_id, "reading-marbles"])
    assert field(browser, "learn-course-from").text == f"A new version of /s/{course_id}."
    # My links: the lesson (both versions) and the course (both versions).
    browser.execute_script("location.hash = 'links'")
    wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "#my-links-list li"))
    kinds = [item.text for item in browser.find_elements(By.CSS_SELECTOR, "#my-links-list li")]
    assert sum("Marbles, then take — course" in text for text in kinds) == 2, kinds
    assert sum("The first two — lesson" in text for text in kinds) == 2, kinds
    axe_clean(browser)
    check_console(browser)


def test_a_course_lesson_is_copied_into_the_writer(browser, playground):
    """"Edit a copy" on a course lesson: its fields filled, a new id, and it checks clean."""
    browser.get(f"{playground.url}/#learn/filtering")
    wait(browser, lambda: field(browser, "lesson").is_displayed())
    field(browser, "lesson-edit").click()
    wait(browser, lambda: field(browser, "writer").is_displayed() and field(browser, "writer-id").get_attribute("value") == "filtering-mine")
    assert field(browser, "writer-program").get_attribute("value")
    wait(browser, lambda: field(browser, "writer-summary").text.startswith("Checked: the lesson keeps every rule"))
    check_console(browser)
