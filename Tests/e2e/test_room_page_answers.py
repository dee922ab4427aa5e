"""A class's answers in Chromium (docs/API.md, "Rooms"): the server and the page read marbles by one
grammar, so an answer the page cannot read is refused (400 `invalid_marbles`) and said to the
student who gave it; the teacher's counts and Reveal come back after a reload whatever was
answered; the class panels draw any row they are given, an unreadable one as its text; a student
who takes the room home during a question is told why not; join codes are 7 characters."""
import json
import re

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.select import Select

from conftest import new_browser
from test_lessons import axe_clean
from test_page import wait
from test_room_page import answer, element, join, open_room, text_of
from test_room_page_streams import check_console, room_key

CODE = re.compile(r"[ACEFGHJKMNPRTWXY34679]{7}")


def test_a_refused_answer_is_said_and_the_teachers_counts_survive_a_reload(playground):
    teacher = new_browser()
    students = [new_browser() for _ in range(3)]
    ada, grace, alan = students
    try:
        code = open_room(teacher, playground.url)
        assert CODE.fullmatch(code), code
        join(ada, playground.url, code, "Ada")
        join(grace, playground.url, code, "Grace")
        # Alan types the 7 characters as people do: lower case, with a dash.
        alan.get(f"{playground.url}/#join")
        wait(alan, lambda: element(alan, "join-code").is_displayed())
        element(alan, "join-code").send_keys(f"{code[:3].lower()}-{code[3:].lower()}")
        element(alan, "join-name").send_keys("Alan", Keys.ENTER)
        wait(alan, lambda: "Wait for your teacher's question" in element(alan, "room").text)
        room = alan.execute_script("return location.hash").removeprefix("#room/")
        wait(teacher, lambda: text_of(teacher, "room-counts").startswith("3 joined"))

        element(teacher, "advance-100").click()
        wait(teacher, lambda: element(teacher, "virtual-time").text == "100 ms")
        element(teacher, "ask-frames").clear()
        element(teacher, "ask-frames").send_keys("8")
        teacher.find_element(By.CSS_SELECTOR, ".room-ask button[type=submit]").click()
        wait(teacher, lambda: "from 100 ms" in text_of(teacher, "room-question"))

        # `*` is no marble: the page says so as it is typed, and sends nothing…
        wait(alan, lambda: alan.find_elements(By.ID, "room-answer"))
        element(alan, "room-answer").send_keys("-*-|", Keys.ENTER)
        wait(alan, lambda: "* is not marble notation" in text_of(alan, "room-answer-problem"))
        assert text_of(alan, "room-answer-status") == "Not answered yet."
        # …and the server refuses it too, by the same grammar, with a message.
        key = room_key(alan, room)
        status, state = playground.json("GET", f"/api/rooms/{room}", headers={"Authorization": f"Bearer {key}"})
        assert status == 200, state
        status, body = playground.json("POST", f"/api/rooms/{room}/answers",
                                       json.dumps({"question": state["question"]["id"], "marbles": "-*-|"}),
                                       {"Authorization": f"Bearer {key}", "Content-Type": "application/json"})
        assert (status, body["error"]["code"]) == (400, "invalid_marbles"), body
        assert "not marble notation" in body["error"]["message"], body
        # An answer the page reads but the server refuses (past the 8 frames asked): the server's message, in the form.
        element(alan, "room-answer").clear()
        element(alan, "room-answer").send_keys("-----------a", Keys.ENTER)
        wait(alan, lambda: text_of(alan, "room-answer-problem") == "The answer goes past the frames the question asks about.")
        assert text_of(alan, "room-answer-status") == "Not answered yet."
        # Taking the room home during a question is refused, and the notice says why.
        element(alan, "room-home").click()
        wait(alan, lambda: "A question is open" in text_of(alan, "notice"))
        assert alan.execute_script("return location.hash") == f"#room/{room}"

        answer(ada, "---b-c|")
        answer(grace, "-a-b-c|")
        counts = "3 joined · 2 answered · 1 right"
        wait(teacher, lambda: text_of(teacher, "room-counts") == counts)
        # A reload: the counts, the class's rows and Reveal are back.
        teacher.refresh()
        wait(teacher, lambda: text_of(teacher, "room-counts") == counts)
        wrong = teacher.find_elements(By.CSS_SELECTOR, "#room-class [data-wrong]")
        assert [row.get_attribute("data-count") for row in wrong] == ["1"] and "-a-b-c|" in wrong[0].text
        reveal = element(teacher, "room-reveal")
        assert reveal.is_displayed() and reveal.is_enabled()
        axe_clean(teacher)
        reveal.click()
        wait(ada, lambda: text_of(ada, "room-verdict").startswith("Right"))
        wait(grace, lambda: text_of(grace, "room-verdict").startswith("Not quite"))
        wait(alan, lambda: text_of(alan, "room-verdict").endswith("you did not answer."))
        wait(teacher, lambda: not element(teacher, "room-reveal").is_enabled())
        axe_clean(alan)

        # Once revealed, Alan takes it home.
        element(alan, "room-home").click()
        wait(alan, lambda: "#session=" in alan.current_url)
        wait(alan, lambda: element(alan, "connection").text == "Live")
        check_console(alan, expected=(f"/api/rooms/{room}/answers", f"/api/rooms/{room}/home"))
        for browser in (teacher, ada, grace):
            check_console(browser)
    finally:
        for browser in (teacher, *students):
            browser.quit()


# The class panels fed rows the page cannot read (a character that is no marble, an unclosed
# group), no marbles at all, and a tally that is not lists: they draw the rest, and say which.
PANELS = """
const done = arguments[arguments.length - 1];
import("/rooms/room-panels.js").then(({ classPanel, revealPanel }) => {
  const question = { id: 1, stream: "out", from: 100, frames: 8, frame: 100, letters: { a: "a", b: "b", c: "c" }, truth: "---b-c|", revealed: true };
  const view = { students: 5, question, class: { answered: 4, right: 1, heat: [0, 1, 0, 3, 0, 3, 3, 0],
    wrong: [{ marbles: "-*-|", count: 1 }, { marbles: "-a-(b", count: 1 }, { marbles: null, count: 1 }, { marbles: "-a-b-c|", count: 1 }] } };
  const main = document.querySelector("main") ?? document.body;
  const box = document.createElement("section");
  box.setAttribute("aria-label", "Panels under test");
  box.id = "panels";
  main.append(box);
  box.append(...classPanel(view));
  const odd = classPanel({ students: 1, question: { ...question, truth: "-*" }, class: { answered: 1, right: 0, wrong: "?", heat: "?" } });
  const mine = revealPanel(question, "-*-|");
  const theirs = revealPanel({ ...question, truth: "(ab" }, "-a|");
  const text = (nodes) => nodes.map((node) => node.textContent).join(" ");
  done({
    counts: box.querySelector("#room-counts").textContent,
    unread: [...box.querySelectorAll("[data-unreadable]")].map((row) => row.textContent),
    drawn: [...box.querySelectorAll("[data-wrong]:not([data-unreadable]) .gallery-circle")].length,
    wrong: [...box.querySelectorAll("[data-wrong]")].map((row) => row.textContent),
    heat: box.querySelectorAll(".room-heat-cell").length,
    odd: text(odd), mine: text(mine), theirs: text(theirs),
  });
}).catch((error) => done({ error: String(error) }));
"""


def test_the_class_panels_draw_any_row_they_are_given(playground):
    browser = new_browser()
    try:
        browser.get(playground.url)
        wait(browser, lambda: element(browser, "intro").is_displayed())
        result = browser.execute_async_script(PANELS)
        assert "error" not in result, result
        assert result["counts"] == "5 joined · 4 answered · 1 right"
        unread = result["unread"]
        assert len(unread) == 2, unread
        assert "-*-|" in unread[0] and "Not drawn: the page cannot read this row (* is not marble notation" in unread[0], unread
        assert "-a-(b" in unread[1] and "a group ( is not closed" in unread[1], unread
        assert "(nothing)" in result["wrong"][2], "no marbles at all: an empty row"
        assert result["drawn"] == 3, "the readable wrong answer is drawn: a, b and c"
        assert result["heat"] == 4, "the heat map is drawn"
        assert "1 joined · 1 answered · 0 right" in result["odd"] and "Not drawn" in result["odd"], result["odd"]
        assert "which the page cannot compare with it (* is not marble notation" in result["mine"], result["mine"]
        assert "cannot compare" in result["theirs"] and "a group ( is not closed" in result["theirs"], result["theirs"]
        # The rows said as text stay accessible.
        axe_clean(browser)
        check_console(browser)
    finally:
        browser.quit()
