"""Values as themselves (issue #72): a number, a boolean or a short text is written and drawn as
its value, a letter only for what one character cannot say, one letter per value across the rows
of a panel; in Chromium at 1280 and 375 px, with screenshots."""
import pytest
from selenium.webdriver.common.by import By

from conftest import ARTIFACTS
from test_lessons import check_challenge, open_lesson, predict, server  # noqa: F401 (fixture)
from test_page import wait

SIZES = [(1280, 900), (375, 800)]


@pytest.mark.parametrize("size", SIZES, ids=["1280", "375"])
def test_lesson_15s_running_total_is_drawn_as_its_numbers(browser, server, size):
    browser.set_window_size(*size)
    browser.get(f"{server.url}/#learn")
    open_lesson(browser, "state-over-time")
    verdict = predict(browser, "-1-3-6|")
    assert verdict.startswith("Right") and "-1-3-6|" in verdict, verdict
    sent = browser.find_element(By.CSS_SELECTOR, "#lesson-result .gallery-lane")
    labels = [node.text for node in sent.find_elements(By.CSS_SELECTOR, ".gallery-letter")]
    assert labels == ["1", "3", "6"], labels
    assert "-1-3-6|" in sent.get_attribute("aria-label")
    # The challenge's rows: a wrong program's row and the goal's share one letter per value.
    status = check_challenge(browser, "total = a.scan(0) { total, x in total * x }")
    assert status.get_attribute("data-passed") == "false"
    wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "#challenge-result .gallery-lane"))
    lanes = browser.find_elements(By.CSS_SELECTOR, "#challenge-result .gallery-lane")
    drawn = {lane.get_attribute("aria-label").split(":")[0]: [node.text for node in lane.find_elements(By.CSS_SELECTOR, ".gallery-letter")]
             for lane in lanes}
    assert drawn.get("total, yours") == ["0", "0", "0"], drawn
    assert drawn.get("total, the goal's") == ["2", "2", "4"], drawn
    browser.save_screenshot(str(ARTIFACTS / f"lesson-15-values-{size[0]}px.png"))


def test_values_one_character_cannot_say_take_letters_and_short_ones_are_drawn(server):
    program = 'a = marbles("-1-2-3|")\nbig = a.map { $0 * 10 }\nwords = a.map { $0 > 1 ? "sw" : "s" }\nflags = a.map { $0 > 1 }'
    status, answer = server.json("POST", "/api/marbles", program.encode(), {"Content-Type": "text/plain"})
    assert status == 200, answer
    streams = answer["streams"]
    assert streams["a"]["marbles"] == "-1-2-3|"
    assert streams["big"]["marbles"] == "-a-b-c|" and streams["big"]["values"] == {"a": 10, "b": 20, "c": 30}
    # One letter per value across the answer: "s" is itself, "sw" and the booleans take letters
    # no other value has.
    words, flags = streams["words"], streams["flags"]
    assert words["marbles"][1] == "s" and words["values"]["s"] == "s"
    sw = words["marbles"][3]
    assert words["marbles"] == f"-s-{sw}-{sw}|" and words["values"][sw] == "sw" and sw not in "abc"
    assert sorted(flags["values"].values()) == [False, True] and not set(flags["values"]) & set("abcs" + sw)
