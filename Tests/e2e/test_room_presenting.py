"""Presentation mode (issue #75) in Chromium: with the teacher's screen mirrored to the projector,
nothing of the answer shows while the class answers — no truth, no wrong answer, no heat map, no
groups of what they missed, not even how many are right — only how many answered; ask and reveal
stay usable, and the reveal shows the answer. Screenshots and axe at 1280."""
from selenium.webdriver.common.by import By

from conftest import ARTIFACTS, new_browser
from test_lessons import axe_clean
from test_page import check_console, wait
from test_room_page import answer, element, join, open_room, text_of


def test_presenting_hides_the_answer_until_the_reveal(playground):
    teacher, student = new_browser(), new_browser()
    try:
        teacher.set_window_size(1280, 900)
        code = open_room(teacher, playground.url)
        join(student, playground.url, code, "Grace")
        teacher.find_element(By.XPATH, "//button[text()='Presentation mode']").click()
        assert teacher.find_element(By.CSS_SELECTOR, ".room-ask").is_displayed(), "asking stays usable when presenting"
        element(teacher, "advance-100").click()
        wait(teacher, lambda: element(teacher, "virtual-time").text == "100 ms")
        element(teacher, "ask-frames").clear()
        element(teacher, "ask-frames").send_keys("8")
        teacher.find_element(By.CSS_SELECTOR, ".room-ask button[type=submit]").click()
        wait(teacher, lambda: "from 100 ms" in text_of(teacher, "room-question"))
        answer(student, "-a-b-c|")
        wait(teacher, lambda: text_of(teacher, "room-counts") == "1 joined · 1 answered")
        page = teacher.find_element(By.ID, "room").text
        for shown in ("(the answer)", "---b-c|", "right", "wrong", "Let every value through"):
            assert shown not in page, (shown, page)
        assert not teacher.find_elements(By.CSS_SELECTOR, "#room-class, [data-wrong], .room-heat-cell, #room-misconceptions")
        teacher.save_screenshot(str(ARTIFACTS / "room-presenting-asked.png"))
        axe_clean(teacher)
        element(teacher, "room-reveal").click()
        wait(teacher, lambda: "(the answer)" in teacher.find_element(By.ID, "room").text)
        assert teacher.find_elements(By.CSS_SELECTOR, "[data-wrong]") and "0 right" in text_of(teacher, "room-counts")
        teacher.save_screenshot(str(ARTIFACTS / "room-presenting-revealed.png"))
        # Out of presentation mode the teacher's own screen shows the class's answers as before.
        teacher.find_element(By.XPATH, "//button[text()='Presentation mode']").click()
        assert teacher.find_elements(By.CSS_SELECTOR, "#room-class")
        check_console(teacher)
    finally:
        teacher.quit()
        student.quit()
