"""The room's report (issue #75): every answer given, question by question and vote by vote, as
JSON and as CSV, for the teacher alone; the CSV parses back to exactly the answers given (a cell a
spreadsheet would read as a formula starts with `'`). The page links both."""
import csv
import io

from selenium.webdriver.common.by import By

from conftest import new_browser
from test_page import wait
from test_room_page import element, open_room as open_room_in_page
from test_rooms import answer, ask, bearer, join, open_room


def number(student):
    """A student's number in the room: the first part of their key, `NUMBER.SECRET`."""
    return int(student["studentKey"].split(".")[0])


def test_the_report_holds_every_answer_and_the_csv_reads_back(playground):
    room = open_room(playground)
    rid, teacher = room["room"], room["teacherKey"]
    students = [join(playground, room["code"], name) for name in ("Ada", 'Grace "G", Hopper', "=HYPERLINK(1)")]
    playground.json("POST", f"/api/rooms/{rid}/inputs/advance", "100", bearer(teacher))
    given = []  # (question, round, student, marbles)
    first = ask(playground, rid, teacher, stream="out", frames=8, frame=100)
    for student, marbles in zip(students, ("---b-c|", "-a-b-c|", "----b-c|")):
        assert answer(playground, rid, student["studentKey"], first["id"], marbles)[0] == 200
        given.append((first["id"], 1, number(student), marbles))
    assert playground.json("POST", f"/api/rooms/{rid}/again", None, bearer(teacher))[0] == 200
    for student, marbles in zip(students[:2], ("---b-c|", "---b-c|")):
        assert answer(playground, rid, student["studentKey"], first["id"], marbles)[0] == 200
        given.append((first["id"], 2, number(student), marbles))
    second = ask(playground, rid, teacher, stream="out", frames=4, frame=100)
    assert answer(playground, rid, students[0]["studentKey"], second["id"], "---b")[0] == 200
    given.append((second["id"], 1, number(students[0]), "---b"))

    status, report = playground.json("GET", f"/api/rooms/{rid}/report", None, bearer(teacher))
    assert status == 200 and report["dropped"] == 0, report
    from_json = [(question["id"], vote["round"], item["student"], item["marbles"])
                 for question in report["questions"] for vote in question["rounds"] for item in vote["answers"]]
    assert sorted(from_json) == sorted(given)
    wrong = next(item for item in report["questions"][0]["rounds"][0]["answers"] if item["marbles"] == "-a-b-c|")
    assert wrong["right"] is False and wrong["misconception"] == "everyValue" and wrong["name"] == 'Grace "G", Hopper'

    status, headers, body = playground.request("GET", f"/api/rooms/{rid}/report?format=csv", None, bearer(teacher))
    headers = {name.lower(): value for name, value in headers.items()}
    assert status == 200 and headers["content-type"].startswith("text/csv") and "attachment" in headers["content-disposition"]
    rows = list(csv.DictReader(io.StringIO(body.decode())))
    unformula = lambda text: text[1:] if text.startswith("'") else text
    from_csv = [(int(row["question"]), int(row["round"]), int(row["student"]), unformula(row["answer"])) for row in rows]
    assert sorted(from_csv) == sorted(given)
    names = {unformula(row["name"]) for row in rows}
    assert names == {"Ada", 'Grace "G", Hopper', "=HYPERLINK(1)"}
    assert all(not row["name"].startswith("=") and not row["answer"].startswith("-") for row in rows), "no cell reads as a formula"

    # The teacher's alone, and in one of two formats.
    for key in (students[0]["studentKey"], playground.json("GET", f"/api/rooms/{rid}", None, bearer(teacher))[1]["audienceKey"]):
        assert playground.json("GET", f"/api/rooms/{rid}/report", None, bearer(key))[0] == 403
    status, refused = playground.json("GET", f"/api/rooms/{rid}/report?format=xml", None, bearer(teacher))
    assert (status, refused["error"]["code"]) == (400, "invalid_value")


def test_the_page_links_the_report(playground):
    teacher = new_browser()
    try:
        open_room_in_page(teacher, playground.url)
        link = element(teacher, "room-report-csv")
        text = teacher.execute_script("return fetch(arguments[0].href).then((answer) => answer.text())", link)
        assert text.startswith("question,round,student,name,answer,right,misconception,truth"), text
    finally:
        teacher.quit()
