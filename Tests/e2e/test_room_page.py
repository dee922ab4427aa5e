"""A class in Chromium (docs/API.md, "Rooms"; the page's `#teach`, `#join/CODE`): one teacher and three
students, each in a browser of their own. The teacher opens a room from a lesson, steps the clock
and asks; two students answer right and one wrong; the teacher sees the counts, the wrong answer as
a group of one and on the heat map, and reveals; the wrong student sees what they missed; one
student takes the room home. Axe clean on both views; screenshots at 1280 and 375."""
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.select import Select

from conftest import new_browser
from test_lessons import axe_clean
from test_page import DESKTOP, PHONE, check_console, check_layout, wait


def element(browser, id):
    return browser.find_element(By.ID, id)


def text_of(browser, id):
    found = browser.find_elements(By.ID, id)
    return found[0].text if found else ""


def open_room(teacher, url):
    teacher.get(f"{url}/#teach")
    wait(teacher, lambda: element(teacher, "room-from").is_displayed())
    Select(element(teacher, "room-from")).select_by_value("lesson:reading-marbles")
    element(teacher, "room-title-field").send_keys("Monday's class", Keys.ENTER)
    wait(teacher, lambda: teacher.find_elements(By.CSS_SELECTOR, ".room-code-value"))
    wait(teacher, lambda: element(teacher, "connection").text == "Live")
    return teacher.find_element(By.CSS_SELECTOR, ".room-code-value").text


def join(student, url, code, name):
    student.get(f"{url}/#join/{code}")
    wait(student, lambda: element(student, "join-name").is_displayed())
    element(student, "join-name").send_keys(name, Keys.ENTER)
    wait(student, lambda: "Wait for your teacher's question" in element(student, "room").text)
    wait(student, lambda: element(student, "connection").text == "Live")
    # A student watches the diagram; the clock and the inputs are the teacher's.
    assert not element(student, "play").is_displayed() and not element(student, "advance-100").is_displayed()


def answer(student, marbles):
    wait(student, lambda: student.find_elements(By.ID, "room-answer"))
    field = element(student, "room-answer")
    field.clear()
    field.send_keys(marbles, Keys.ENTER)
    wait(student, lambda: f"Your answer is in: {marbles}." in text_of(student, "room-answer-status"))


def test_a_teacher_asks_three_students_and_reveals(playground):
    teacher = new_browser()
    students = [new_browser() for _ in range(3)]
    try:
        code = open_room(teacher, playground.url)
        for student, name in zip(students, ("Ada", "Grace", "Alan")):
            join(student, playground.url, code, name)
        wait(teacher, lambda: text_of(teacher, "room-counts").startswith("3 joined"))

        # The teacher steps the clock by 100 ms, then asks what `out` does next.
        element(teacher, "advance-100").click()
        wait(teacher, lambda: element(teacher, "virtual-time").text == "100 ms")
        assert Select(element(teacher, "ask-stream")).first_selected_option.text == "out", "the lesson's own question"
        element(teacher, "ask-frames").clear()
        element(teacher, "ask-frames").send_keys("8")
        teacher.find_element(By.CSS_SELECTOR, ".room-ask button[type=submit]").click()
        wait(teacher, lambda: "from 100 ms" in text_of(teacher, "room-question"))
        for student in students:
            wait(student, lambda: student.find_elements(By.ID, "room-answer"))

        answer(students[0], "---b-c|")
        answer(students[1], "---b-c|")
        answer(students[2], "-a-b-c|")
        wait(teacher, lambda: text_of(teacher, "room-counts") == "3 joined · 3 answered · 2 right")
        wrong = teacher.find_elements(By.CSS_SELECTOR, "#room-class [data-wrong]")
        assert len(wrong) == 1 and wrong[0].get_attribute("data-count") == "1" and "-a-b-c|" in wrong[0].text
        # Grouped by what it missed: every value of `a` let through, as if skip did nothing.
        groups = [(item.get_attribute("data-group"), item.text) for item in teacher.find_elements(By.CSS_SELECTOR, "#room-misconceptions li")]
        assert groups == [("everyValue", "1 × Let every value through, as if the operator did nothing.")], groups
        heat = {cell.get_attribute("data-frame"): cell.get_attribute("data-count")
                for cell in teacher.find_elements(By.CSS_SELECTOR, ".room-heat-cell")}
        assert heat == {"1": "1", "3": "3", "5": "3", "6": "3"}, heat
        axe_clean(teacher)
        for size in (DESKTOP, PHONE):
            check_layout(teacher, "room-teacher", size)
        teacher.set_window_size(*DESKTOP)

        element(teacher, "room-reveal").click()
        wait(students[2], lambda: text_of(students[2], "room-verdict").startswith("Not quite"))
        missed = [item.text for item in students[2].find_elements(By.CSS_SELECTOR, "#room-missed li")]
        assert missed and any("never sent" in item for item in missed), missed
        wait(students[0], lambda: text_of(students[0], "room-verdict").startswith("Right"))
        axe_clean(students[2])
        for size in (DESKTOP, PHONE):
            check_layout(students[2], "room-student", size)
        students[2].set_window_size(*DESKTOP)

        # Ada takes it home: a session of her own, on the room's clock, hers to drive.
        element(students[0], "room-home").click()
        wait(students[0], lambda: "#session=" in students[0].current_url and element(students[0], "room").get_attribute("hidden") is not None)
        wait(students[0], lambda: element(students[0], "connection").text == "Live")
        assert element(students[0], "advance-100").is_displayed()
        for browser in (teacher, *students):
            check_console(browser)
    finally:
        for browser in (teacher, *students):
            browser.quit()


def test_a_course_moves_on_and_the_class_follows(playground):
    """A room opened from a course the teacher kept: "Next lesson" moves it, and a student's page
    follows to the new lesson's session without a reload."""
    import json
    course = {"kind": "course", "title": "Filters, in order", "content": json.dumps({"lessons": ["reading-marbles", "filtering"]})}
    status, link = playground.json("POST", "/api/links", json.dumps(course), {"Content-Type": "application/json"})
    assert status == 201, link
    teacher, student = new_browser(), new_browser()
    try:
        teacher.get(f"{playground.url}/s/{link['id']}")  # opening the link remembers it in "My links"
        wait(teacher, lambda: element(teacher, "learn").is_displayed())
        teacher.get(f"{playground.url}/#teach")
        wait(teacher, lambda: element(teacher, "room-from").is_displayed())
        Select(element(teacher, "room-from")).select_by_value(f"course:{link['id']}")
        teacher.find_element(By.CSS_SELECTOR, ".room-form button[type=submit]").click()
        wait(teacher, lambda: "Lesson 1 of 2" in text_of(teacher, "room-lesson"))
        assert text_of(teacher, "room-title") == "Filters, in order"
        code = teacher.find_element(By.CSS_SELECTOR, ".room-code-value").text
        join(student, playground.url, code, "Ada")
        assert "Lesson 1 of 2" in element(student, "room").text
        first_session = student.execute_script("return location.hash")
        teacher.find_element(By.XPATH, "//button[text()='Next lesson']").click()
        wait(teacher, lambda: "Lesson 2 of 2" in text_of(teacher, "room-lesson"))
        wait(student, lambda: "Lesson 2 of 2" in element(student, "room").text)
        wait(student, lambda: element(student, "connection").text == "Live")
        # The diagram below is the new lesson's session: its program is the filtering lesson's.
        wait(student, lambda: "filter" in element(student, "source-code").text)
        assert student.execute_script("return location.hash") == first_session, "the room's address stays"
        # The teacher lists the class, takes the student out, and closes the room to newcomers.
        teacher.find_element(By.XPATH, "//button[text()='Show names']").click()
        wait(teacher, lambda: "Ada" in text_of(teacher, "room-names"))
        teacher.find_element(By.CSS_SELECTOR, "#room-names button[aria-label='Remove Ada from the room']").click()
        teacher.switch_to.alert.accept()  # Remove asks first (test_room_seats.py)
        wait(student, lambda: text_of(student, "room-title") == "You have left the room")
        wait(teacher, lambda: "Nobody has joined yet." in text_of(teacher, "room-names"))
        element(teacher, "room-door").click()
        wait(teacher, lambda: element(teacher, "room-door").get_attribute("aria-pressed") == "true")
        for browser in (teacher, student):
            check_console(browser)
    finally:
        teacher.quit()
        student.quit()
