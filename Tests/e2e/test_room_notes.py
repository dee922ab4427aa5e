"""The teacher's note on a group of wrong answers (issue #75): written under a group of what the
class missed, it reaches the students whose answer is in that group at the reveal, and them alone.
Bad notes are refused with a reason. In Chromium: the teacher writes it on the page (kept while the
view is drawn again), a student reads it after the reveal."""
import json

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import new_browser
from test_lessons import axe_clean
from test_page import check_console, wait
from test_room_page import answer as answer_in_page, element, join as join_in_page, open_room as open_room_in_page, text_of
from test_rooms import answer, ask, bearer, join, open_room

JSON = {"Content-Type": "application/json"}


def test_a_note_reaches_its_group_at_the_reveal_and_bad_ones_are_refused(playground):
    room = open_room(playground)
    rid, teacher = room["room"], room["teacherKey"]
    ada, alan = join(playground, room["code"], "Ada"), join(playground, room["code"], "Alan")
    playground.json("POST", f"/api/rooms/{rid}/inputs/advance", "100", bearer(teacher))
    question = ask(playground, rid, teacher, stream="out", frames=8, frame=100)
    assert answer(playground, rid, ada["studentKey"], question["id"], "-a-b-c|")[0] == 200  # every value
    assert answer(playground, rid, alan["studentKey"], question["id"], "---b-c")[0] == 200  # the end missed
    note = "skip(1) drops the first value: look at a again."
    status, view = playground.json("POST", f"/api/rooms/{rid}/notes", json.dumps({"group": "everyValue", "note": note}), {**bearer(teacher), **JSON})
    assert status == 200 and next(group for group in view["class"]["missed"] if group["group"] == "everyValue")["note"] == note
    status, mine = playground.json("GET", f"/api/rooms/{rid}", None, bearer(ada["studentKey"]))
    assert "note" not in mine["you"], "not before the reveal"
    for body, message in [({"group": "guessing", "note": "x"}, "one of"), ({"group": "everyValue", "note": "x" * 201}, "1 to 200 characters"),
                          ({"group": "everyValue", "note": 3}, "note is text"), ({"note": "x"}, "Send")]:
        status, refused = playground.json("POST", f"/api/rooms/{rid}/notes", json.dumps(body), {**bearer(teacher), **JSON})
        assert status == 400 and message in refused["error"]["message"], (body, refused)
    status, _ = playground.json("POST", f"/api/rooms/{rid}/notes", json.dumps({"group": "everyValue", "note": "x"}), {**bearer(ada["studentKey"]), **JSON})
    assert status == 403
    assert playground.json("POST", f"/api/rooms/{rid}/reveal", None, bearer(teacher))[0] == 200
    status, mine = playground.json("GET", f"/api/rooms/{rid}", None, bearer(ada["studentKey"]))
    assert mine["you"]["note"] == note
    status, theirs = playground.json("GET", f"/api/rooms/{rid}", None, bearer(alan["studentKey"]))
    assert "note" not in theirs["you"], "a note reaches its own group alone"


def test_the_teacher_writes_a_note_on_the_page_and_the_student_reads_it(playground):
    teacher, student = new_browser(), new_browser()
    try:
        code = open_room_in_page(teacher, playground.url)
        join_in_page(student, playground.url, code, "Ada")
        element(teacher, "advance-100").click()
        wait(teacher, lambda: element(teacher, "virtual-time").text == "100 ms")
        element(teacher, "ask-frames").clear()
        element(teacher, "ask-frames").send_keys("8")
        teacher.find_element(By.CSS_SELECTOR, ".room-ask button[type=submit]").click()
        wait(teacher, lambda: "from 100 ms" in text_of(teacher, "room-question"))
        answer_in_page(student, "-a-b-c|")
        wait(teacher, lambda: teacher.find_elements(By.ID, "room-note-everyValue"))
        element(teacher, "room-note-everyValue").send_keys("skip drops the first value.", Keys.ENTER)
        wait(teacher, lambda: element(teacher, "room-note-everyValue").get_attribute("value") == "skip drops the first value."
             and "Change the note" in teacher.find_element(By.CSS_SELECTOR, ".room-note button").text)
        axe_clean(teacher)
        element(teacher, "room-reveal").click()
        wait(student, lambda: text_of(student, "room-teacher-note") == "Your teacher's note: skip drops the first value.")
        axe_clean(student)
        for browser in (teacher, student):
            check_console(browser)
    finally:
        teacher.quit()
        student.quit()
