"""What the class predicts from (issue #75): a lesson room's question carries the lesson's input
rows over the question's frames — written at its frame, reading back to the run's events — and
every student's screen (and the projector's) draws them above the answer, on the same time axis.
In Chromium at 375 px, axe clean, with a screenshot."""
from selenium.webdriver.common.by import By

from conftest import ARTIFACTS, new_browser
from test_lessons import axe_clean
from test_page import PHONE, check_console, wait
from test_room_page import element, join as join_in_page, open_room as open_room_in_page, text_of
from test_rooms import ask, bearer, join, open_room


def test_the_question_carries_the_input_rows_of_its_window(playground):
    room = open_room(playground)
    rid, teacher = room["room"], room["teacherKey"]
    student = join(playground, room["code"], "Ada")
    playground.json("POST", f"/api/rooms/{rid}/inputs/advance", "100", bearer(teacher))
    ask(playground, rid, teacher, stream="out", frames=8, frame=100)
    status, view = playground.json("GET", f"/api/rooms/{rid}", None, bearer(student["studentKey"]))
    # `a` is -a--b-c| from 0: from 100 ms on, a at once, b at 400, c at 600, the end at 700.
    assert view["question"]["rows"] == [{"name": "a", "marbles": "a--b-c|"}], view["question"]
    assert "truth" not in view["question"]


def test_a_student_sees_the_rows_above_the_answer(playground):
    teacher, student = new_browser(), new_browser()
    try:
        code = open_room_in_page(teacher, playground.url)
        student.set_window_size(*PHONE)
        join_in_page(student, playground.url, code, "Grace")
        element(teacher, "advance-100").click()
        wait(teacher, lambda: element(teacher, "virtual-time").text == "100 ms")
        element(teacher, "ask-frames").clear()
        element(teacher, "ask-frames").send_keys("8")
        teacher.find_element(By.CSS_SELECTOR, ".room-ask button[type=submit]").click()
        wait(student, lambda: student.find_elements(By.ID, "room-material") and student.find_elements(By.ID, "room-answer"))
        material = element(student, "room-material")
        assert "a--b-c|" in material.text and len(material.find_elements(By.CSS_SELECTOR, ".gallery-circle")) == 3, material.text
        above = student.execute_script(
            "return document.getElementById('room-material').getBoundingClientRect().top < document.getElementById('room-answer').getBoundingClientRect().top")
        assert above, "the rows come above the answer"
        student.execute_script("document.getElementById('room-material').scrollIntoView({block: 'start'})")
        student.save_screenshot(str(ARTIFACTS / "room-material-phone.png"))
        axe_clean(student)
        check_console(student)
    finally:
        teacher.quit()
        student.quit()
