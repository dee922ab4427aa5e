"""The audience view (issue #75): the projector's own window, opened from the teacher's screen with a
key that watches the room and controls nothing. Over HTTP: its key reads the room and its diagram,
and is refused every route that changes anything or shows the class's answers; its snapshots hold
no truth and no tally until the reveal, only how many answered. In Chromium: the teacher opens it,
a student answers, its DOM and screenshot hold no truth, wrong answer or heat map; after the
reveal it shows the answer. Axe clean."""
from selenium.webdriver.common.by import By

from conftest import ARTIFACTS, new_browser
from test_lessons import axe_clean
from test_page import check_console, wait
from test_room_page import answer as answer_in_page, element, join as join_in_page, open_room as open_room_in_page, text_of
from test_rooms import answer, ask, bearer, join, open_room, room_events


def latest(stream):
    return stream.events[-1]["json"]


def test_the_audience_key_watches_and_does_nothing_else(playground):
    room = open_room(playground)
    rid, teacher = room["room"], room["teacherKey"]
    status, view = playground.json("GET", f"/api/rooms/{rid}", None, bearer(teacher))
    audience = view["audienceKey"]
    assert len(audience) == 32 and audience != teacher
    student = join(playground, room["code"], "Ada")
    status, _ = playground.json("POST", f"/api/rooms/{rid}/inputs/advance", "100", bearer(teacher))
    question = ask(playground, rid, teacher, stream="out", frames=8, frame=100)
    watch = room_events(playground, rid, key=audience)
    watch.wait_for(lambda events: events and latest(watch).get("question"))
    assert "truth" not in latest(watch)["question"] and "class" not in latest(watch) and "audienceKey" not in latest(watch)
    assert latest(watch)["answered"] == 0
    status, body = answer(playground, rid, student["studentKey"], question["id"], "-a-b-c|")
    assert status == 200, body
    watch.wait_for(lambda events: latest(watch).get("answered") == 1)
    assert "truth" not in latest(watch)["question"] and "class" not in latest(watch)
    # It watches the diagram too, and nothing else.
    status, _ = playground.json("GET", f"/api/rooms/{rid}/session", None, bearer(audience))
    assert status == 200
    refused = [
        ("POST", f"/api/rooms/{rid}/reveal", None), ("POST", f"/api/rooms/{rid}/questions", "{}"), ("GET", f"/api/rooms/{rid}/students", None),
        ("POST", f"/api/rooms/{rid}/answers", '{"question": 1, "marbles": "-|"}'), ("POST", f"/api/rooms/{rid}/inputs/advance", "100"),
        ("POST", f"/api/rooms/{rid}/home", None), ("DELETE", f"/api/rooms/{rid}", None), ("POST", f"/api/rooms/{rid}/lock", '{"locked": true}'),
        ("GET", f"/api/rooms/{rid}/session/recording", None),
    ]
    for method, path, body in refused:
        status, answered = playground.json(method, path, body, {**bearer(audience), "Content-Type": "application/json"})
        assert status == 403, (method, path, status, answered)
    # A student's key is not the audience's, nor the teacher's.
    status, view = playground.json("GET", f"/api/rooms/{rid}", None, bearer(student["studentKey"]))
    assert "audienceKey" not in view and "answered" not in view
    # After the reveal the audience sees the answer and the class's answers.
    status, _ = playground.json("POST", f"/api/rooms/{rid}/reveal", None, bearer(teacher))
    assert status == 200
    watch.wait_for(lambda events: latest(watch)["question"].get("truth") == "---b-c|")
    assert latest(watch)["class"]["wrong"][0]["marbles"] == "-a-b-c|"
    watch.close()


def test_the_projector_shows_the_question_and_no_answer_until_the_reveal(playground):
    teacher, student = new_browser(), new_browser()
    try:
        teacher.set_window_size(1280, 900)
        code = open_room_in_page(teacher, playground.url)
        join_in_page(student, playground.url, code, "Grace")
        element(teacher, "advance-100").click()
        wait(teacher, lambda: element(teacher, "virtual-time").text == "100 ms")
        element(teacher, "ask-frames").clear()
        element(teacher, "ask-frames").send_keys("8")
        teacher.find_element(By.CSS_SELECTOR, ".room-ask button[type=submit]").click()
        wait(teacher, lambda: "from 100 ms" in text_of(teacher, "room-question"))
        own = teacher.current_window_handle
        teacher.find_element(By.XPATH, "//button[text()='Open the audience view']").click()
        wait(teacher, lambda: len(teacher.window_handles) == 2)
        teacher.switch_to.window(next(handle for handle in teacher.window_handles if handle != own))
        wait(teacher, lambda: "What does out send" in element(teacher, "room").text)
        answer_in_page(student, "-a-b-c|")
        wait(teacher, lambda: text_of(teacher, "room-counts") == "1 joined · 1 answered")
        page = teacher.find_element(By.TAG_NAME, "body").text
        for shown in ("(the answer)", "---b-c|", "-a-b-c|", "right", "wrong", "Reveal"):
            assert shown not in page, (shown, page)
        assert not teacher.find_elements(By.CSS_SELECTOR, "#room-class, [data-wrong], .room-heat-cell, #room-misconceptions, .room-ask")
        assert not element(teacher, "play").is_displayed(), "the projector drives nothing"
        assert code in page, "the code to join with is on the projector"
        teacher.save_screenshot(str(ARTIFACTS / "room-audience-asked.png"))
        axe_clean(teacher)
        # The teacher reveals, from their own window: the projector shows the answer.
        teacher.switch_to.window(own)
        element(teacher, "room-reveal").click()
        teacher.switch_to.window(next(handle for handle in teacher.window_handles if handle != own))
        wait(teacher, lambda: "(the answer)" in element(teacher, "room").text)
        assert teacher.find_elements(By.CSS_SELECTOR, "[data-wrong]")
        teacher.save_screenshot(str(ARTIFACTS / "room-audience-revealed.png"))
        check_console(teacher)
    finally:
        teacher.quit()
        student.quit()
