"""Questions on the machine (issue #74, docs/LESSONS.md): a lesson asks for a number about the RAC
objects its program builds — subscriptions made or alive, what a subject holds, what a replay
subject keeps — and the page counts it from a real run's objects at that instant (`POST
/api/marbles?inside=MS`). In Chromium at 1280 and 375 px: every shipped question, answered wrong
then right, is counted by the page to exactly the answer the server's lesson check holds it to,
with the objects counted listed and the run's changes at the instant narrated; axe clean."""
import json

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from test_lessons import LESSONS, axe_clean, open_lesson, screenshot, server  # noqa: F401 (the fixture: one server for the module)
from test_page import check_console, wait

ASKING = [lesson for lesson in LESSONS if lesson.get("machine")]


def test_at_least_four_lessons_ask_for_a_prediction_of_the_machine():
    assert len(ASKING) >= 4, [lesson["id"] for lesson in ASKING]
    counts = {question["count"] for lesson in ASKING for question in lesson["machine"]}
    assert counts == {"made", "alive", "held", "buffered"}, counts


def answer(browser, index, number):
    form = browser.find_elements(By.CSS_SELECTOR, "#machine-questions .machine-question")[index]
    field = form.find_element(By.CSS_SELECTOR, "input.machine-answer")
    field.clear()
    field.send_keys(str(number), Keys.ENTER)  # Enter submits the form, as the keyboard does
    verdict = lambda: form.find_elements(By.CSS_SELECTOR, ".machine-result .lesson-verdict")
    wait(browser, lambda: verdict() and (f"you said {number}." in verdict()[0].text or verdict()[0].text.startswith("Right")))
    return form, verdict()[0]


@pytest.mark.parametrize("width", [1280, 375])
def test_every_question_is_counted_from_the_runs_objects(browser, server, width):
    browser.set_window_size(width, 900)
    browser.get("about:blank")
    browser.get_log("browser")
    browser.get(f"{server.url}/#learn")
    for lesson in ASKING:
        open_lesson(browser, lesson["id"])
        assert browser.find_element(By.ID, "machine").is_displayed()
        for index, question in enumerate(lesson["machine"]):
            truth = question["answer"]
            form, verdict = answer(browser, index, truth + 1)
            assert verdict.text.startswith("Not quite") and verdict.get_attribute("data-count") == str(truth), verdict.text
            form, verdict = answer(browser, index, truth)
            assert verdict.text.startswith(f"Right: {truth}"), verdict.text
            objects = form.find_elements(By.CSS_SELECTOR, ".machine-objects li")
            expected_listed = 1 if question["count"] == "buffered" else truth
            assert len(objects) == expected_listed, [item.text for item in objects]
            assert all("probe" not in item.text or question["count"] == "held" for item in objects), [item.text for item in objects]
            assert question["result"].split("`")[0] in form.text
    # The serial swap of lesson 9 is narrated at its instant, in RAC's words and its order.
    open_lesson(browser, "compound-and-serial-disposables")
    form, _ = answer(browser, 0, 1)
    changes = [item.text for item in form.find_elements(By.CSS_SELECTOR, ".machine-changes li")]
    swap = next((text for text in changes if "RACSerialDisposable swapped" in text), None)
    assert swap and swap.startswith("500 ms:") and "the old inner subscription is disposed before the new one is subscribed" in swap, changes
    # Lesson 12's subject holds early's and late's subscribers, by their streams.
    open_lesson(browser, "sharing")
    form, _ = answer(browser, 1, 2)
    assert "Held by #" in form.text and "RACSubject" in form.text, form.text
    screenshot(browser, "machine", f"lesson-machine-{width}.png")
    axe_clean(browser)
    check_console(browser)


def test_the_page_counts_as_the_server_checks(server):
    """The page's rule and the server's agree on a question the server's check refuses: the
    lesson check names the answer the run counts (an answer changed by one is caught)."""
    lesson = json.loads(json.dumps(next(lesson for lesson in ASKING if lesson["id"] == "sharing")))
    lesson["machine"][2]["answer"] += 1
    status, report = server.json("POST", "/api/lessons/check", json.dumps(lesson).encode(), {"Content-Type": "application/json"})
    assert status == 200, report
    assert [problem["field"] for problem in report["problems"]] == ["machine[2].answer"], report
    assert "count 1" in report["problems"][0]["message"], report
