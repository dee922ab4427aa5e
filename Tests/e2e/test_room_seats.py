"""Seats (issue #75) in Chromium: a student who opens the join link again — a reload, a second
tab — is back in the seat their browser holds, not in a second one (the joined count unchanged);
the teacher's list of names, once shown, follows who has answered the question asked; Remove and
End ask before they act."""
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.select import Select

from conftest import new_browser
from test_lessons import axe_clean
from test_page import check_console, wait
from test_room_page import answer, element, join, open_room, text_of


def names(teacher):
    return [(item.text, item.get_attribute("data-answered")) for item in teacher.find_elements(By.CSS_SELECTOR, "#room-names li")]


def test_a_student_keeps_one_seat_and_the_teacher_sees_who_answered(playground):
    teacher, student = new_browser(), new_browser()
    try:
        code = open_room(teacher, playground.url)
        join(student, playground.url, code, "Linus")
        wait(teacher, lambda: text_of(teacher, "room-counts").startswith("1 joined"))
        seat = student.execute_script("return location.hash")
        # The join link again: back in the seat, no second one.
        student.get("about:blank")
        student.get(f"{playground.url}/#join/{code}")
        wait(student, lambda: student.execute_script("return location.hash") == seat)
        wait(student, lambda: "Wait for your teacher's question" in element(student, "room").text)
        assert text_of(teacher, "room-counts").startswith("1 joined"), text_of(teacher, "room-counts")

        # The teacher asks; the names say who has not answered, then follow the answer.
        element(teacher, "advance-100").click()
        wait(teacher, lambda: element(teacher, "virtual-time").text == "100 ms")
        element(teacher, "ask-frames").clear()
        element(teacher, "ask-frames").send_keys("8")
        teacher.find_element(By.CSS_SELECTOR, ".room-ask button[type=submit]").click()
        wait(teacher, lambda: "from 100 ms" in text_of(teacher, "room-question"))
        teacher.find_element(By.XPATH, "//button[text()='Show names']").click()
        wait(teacher, lambda: names(teacher) and names(teacher)[0][1] == "false")
        assert names(teacher)[0][0].startswith("Linus — not answered yet"), names(teacher)
        answer(student, "---b-c|")
        wait(teacher, lambda: names(teacher) and names(teacher)[0][1] == "true")
        assert names(teacher)[0][0].startswith("Linus — answered"), names(teacher)
        axe_clean(teacher)

        # Remove asks first: dismissed, Linus stays; accepted, Linus goes.
        remove = teacher.find_element(By.CSS_SELECTOR, "#room-names li button")
        remove.click()
        alert = teacher.switch_to.alert
        assert "Remove Linus from the room?" in alert.text
        alert.dismiss()
        assert text_of(teacher, "room-counts").startswith("1 joined")
        teacher.find_element(By.CSS_SELECTOR, "#room-names li button").click()
        teacher.switch_to.alert.accept()
        wait(teacher, lambda: text_of(teacher, "room-counts").startswith("0 joined"))
        # End asks first too: dismissed, the room goes on.
        teacher.find_element(By.XPATH, "//button[text()='End the room']").click()
        alert = teacher.switch_to.alert
        assert "End the room for everyone?" in alert.text
        alert.dismiss()
        assert element(teacher, "connection").text == "Live"
        check_console(teacher)
    finally:
        teacher.quit()
        student.quit()
