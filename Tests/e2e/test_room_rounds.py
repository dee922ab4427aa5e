"""Vote, discuss, vote again (issue #75, Peer Instruction): the teacher asks the question again as a
second vote; the first vote's answers are kept apart, nothing is revealed, each student is
reminded of their first answer; the teacher sees how the class moved (right → right, wrong →
right, …) and the normalized change; the audience sees neither vote's results before the reveal.
Over HTTP, and in Chromium for the teacher's table and a student's reminder."""
import json

from selenium.webdriver.common.by import By

from conftest import ARTIFACTS, new_browser
from test_lessons import axe_clean
from test_page import check_console, wait
from test_room_page import answer as answer_in_page, element, join as join_in_page, open_room as open_room_in_page, text_of
from test_rooms import answer, ask, bearer, join, open_room, room_events


def latest(stream):
    return stream.events[-1]["json"]


def test_a_second_vote_keeps_the_first_and_shows_how_the_class_moved(playground):
    room = open_room(playground)
    rid, teacher = room["room"], room["teacherKey"]
    students = [join(playground, room["code"], name) for name in ("Ada", "Grace", "Alan")]
    playground.json("POST", f"/api/rooms/{rid}/inputs/advance", "100", bearer(teacher))
    question = ask(playground, rid, teacher, stream="out", frames=8, frame=100)
    truth = "---b-c|"
    for student, marbles in zip(students, (truth, "-a-b-c|", "-a-b-c|")):
        assert answer(playground, rid, student["studentKey"], question["id"], marbles)[0] == 200
    status, view = playground.json("POST", f"/api/rooms/{rid}/again", None, bearer(teacher))
    assert status == 200 and view["question"]["round"] == 2, view
    assert view["class"]["answered"] == 0 and view["class"]["movement"]["firstRight"] == 1
    status, again = playground.json("POST", f"/api/rooms/{rid}/again", None, bearer(teacher))
    assert (status, again["error"]["code"]) == (409, "second_round")
    status, mine = playground.json("GET", f"/api/rooms/{rid}", None, bearer(students[1]["studentKey"]))
    assert mine["you"]["first"] == "-a-b-c|" and "answer" not in mine["you"] and "truth" not in mine["question"]
    audience = room_events(playground, rid, key=view["audienceKey"])
    audience.wait_for(lambda events: events and latest(audience)["question"]["round"] == 2)
    # Second vote: Grace changes her mind, Alan does not, Ada goes wrong.
    for student, marbles in zip(students, ("----b-c|", truth, "-a-b-c|")):
        assert answer(playground, rid, student["studentKey"], question["id"], marbles)[0] == 200
    status, view = playground.json("GET", f"/api/rooms/{rid}", None, bearer(teacher))
    movement = view["class"]["movement"]
    assert (movement["rightToRight"], movement["wrongToRight"], movement["rightToWrong"], movement["wrongToWrong"]) == (0, 1, 1, 1)
    assert (movement["firstAnswered"], movement["firstRight"], view["class"]["right"]) == (3, 1, 1)
    assert movement["normalizedChange"] == 0  # 1 of 3 right before and after
    audience.wait_for(lambda events: latest(audience).get("answered") == 3)
    assert "class" not in latest(audience) and "truth" not in latest(audience)["question"]
    assert playground.json("POST", f"/api/rooms/{rid}/reveal", None, bearer(teacher))[0] == 200
    audience.wait_for(lambda events: latest(audience)["question"].get("truth") == truth)
    assert latest(audience)["class"]["movement"]["wrongToRight"] == 1
    audience.close()


def test_the_teacher_sees_the_movement_and_a_student_their_first_answer(playground):
    teacher, student = new_browser(), new_browser()
    try:
        code = open_room_in_page(teacher, playground.url)
        join_in_page(student, playground.url, code, "Linus")
        element(teacher, "advance-100").click()
        wait(teacher, lambda: element(teacher, "virtual-time").text == "100 ms")
        element(teacher, "ask-frames").clear()
        element(teacher, "ask-frames").send_keys("8")
        teacher.find_element(By.CSS_SELECTOR, ".room-ask button[type=submit]").click()
        wait(teacher, lambda: "from 100 ms" in text_of(teacher, "room-question"))
        answer_in_page(student, "-a-b-c|")
        wait(teacher, lambda: text_of(teacher, "room-counts").endswith("1 answered · 0 right"))
        element(teacher, "room-again").click()
        wait(student, lambda: "Second vote" in text_of(student, "room-round"))
        assert "Your first answer was -a-b-c|." in text_of(student, "room-round"), text_of(student, "room-round")
        answer_in_page(student, "---b-c|")
        wait(teacher, lambda: "wrong → right" in text_of(teacher, "room-movement"))
        # Read at once: the teacher's view is drawn again with each snapshot.
        read = lambda: teacher.execute_script("""
            const rows = [...document.querySelectorAll('#room-movement tr')].map((row) => [row.cells[0].textContent, row.cells[1].textContent]);
            return {rows: Object.fromEntries(rows), change: document.querySelector('.room-change')?.textContent ?? ''};""")
        wait(teacher, lambda: read()["rows"].get("wrong → right") == "1")
        shown = read()
        assert shown["rows"] == {"right → right": "0", "wrong → right": "1", "right → wrong": "0", "wrong → wrong": "0"}, shown
        assert "100 % of what could be gained" in shown["change"], shown
        assert not teacher.find_elements(By.ID, "room-again"), "one second vote a question"
        teacher.save_screenshot(str(ARTIFACTS / "room-second-vote.png"))
        axe_clean(teacher)
        axe_clean(student)
        for browser in (teacher, student):
            check_console(browser)
    finally:
        teacher.quit()
        student.quit()
