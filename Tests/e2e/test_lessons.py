"""The course (docs/LESSONS.md): every lesson file checked against the real server — its program
checks clean, its expected answer is exactly what the server draws, its reference solution
passes its challenge and the unchanged program fails it (by the server's lesson validator, `POST
/api/lessons/check`) — and, in Chromium, lessons gone through
end to end by keyboard: a right prediction, a wrong one with its mismatches drawn, a challenge
failed then passed, progress kept over a reload, axe clean on every lesson."""
import copy
import json
import re

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import ARTIFACTS, ROOT
from test_page import check_console, wait

FILES = sorted((ROOT / "Public/lessons").glob("*.json"))
LESSONS = [json.loads(path.read_text()) for path in FILES]


def lesson_program(inputs, program):
    """The lesson's input rows as `NAME = marbles("…")` lines, then its program (as the page does)."""
    lines = []
    for row in inputs:
        values = "".join(f", {letter}: {json.dumps(value)}" for letter, value in row.get("values", {}).items())
        nested = "".join(f", {letter}: marbles({json.dumps(inner)})" for letter, inner in row.get("nested", {}).items())
        lines.append(f'{row["name"]} = marbles({json.dumps(row["marbles"])}{values}{nested})')
    return "\n".join([*lines, program])


def lesson_problems(playground, lesson):
    """The rules of docs/LESSONS.md that `lesson` breaks, by the server's lesson validator
    (`POST /api/lessons/check`, the one that checks lessons written on the page), which runs the
    lesson as the page does: `[{field, message}]`."""
    status, answer = playground.json("POST", "/api/lessons/check", json.dumps(lesson).encode(), {"Content-Type": "application/json"})
    assert status == 200, answer
    return answer["problems"]


def check_lesson(playground, lesson):
    """Every rule of docs/LESSONS.md for one lesson; an AssertionError says which is broken."""
    problems = lesson_problems(playground, lesson)
    assert problems == [], f"{lesson.get('id')}: {problems}"


MARBLE_NOTATION = re.compile(r"[-\w()|#^! ]*")


def code_spans(lesson):
    """The code spans of a lesson's text (explanation, result, task, questions on the machine) that are neither marble
    notation (`--1-2-(34)-5|`, `(ab)`), an operator's name as Swift writes it (`deliver(on:)`) nor
    RAC's own Objective-C (`RACObserve(model, name)`, `[[signal multicast:subject] connect]`)."""
    texts = [*lesson["explanation"], lesson["result"], lesson["challenge"]["task"],
             *[question[field] for question in lesson.get("machine", []) for field in ("question", "result")]]
    spans = [span for text in texts for span in re.findall(r"`([^`]+)`", text)]
    notation = lambda span: MARBLE_NOTATION.fullmatch(span) and (re.search(r"[-|#^!]", span) or span.startswith("("))
    swift_name = lambda span: re.fullmatch(r"\w+\((\w+:)+\)", span)
    objective_c = lambda span: span.startswith("RAC") or re.match(r"\[+\w+ \w+", span)  # `[[signal multicast:…] connect]`
    return [span for span in spans if "(" in span and not notation(span) and not swift_name(span) and not objective_c(span)]


def test_every_code_span_of_a_lesson_is_the_language(server):
    """What a lesson's text shows as code runs as written: a statement (`out = a.skip(1)`), an
    expression (`timer(after: 0.2s).flatMap(.merge) { _ in a }`) or an operator call on a row
    (`take(3)`) checks clean after the lesson's rows, so a learner who copies it is not told it is
    unknown. Swift is shown only as a scenario lesson's `code`, captioned as Swift."""
    checked = 0
    for lesson in LESSONS:
        rows = lesson["inputs"] + ([{"name": "press", "marbles": "-a|"}] if "press" not in {row["name"] for row in lesson["inputs"]} else [])
        for span in code_spans(lesson):
            candidates = [span] if re.match(r"^\w+\s*=", span) else [f"shown = {span}", f"shown = {rows[0]['name']}.{span}"]
            # A statement of the lesson's own program (`conn.connect()`) checks after it.
            candidates += [f"{lesson['program']}\n{text}" for text in (span, f"shown = {span}") if lesson.get("program")]
            answers = [server.json("POST", "/api/pipelines/check", lesson_program(rows, text).encode(), {"Content-Type": "text/plain"})[1]["diagnostics"]
                       for text in candidates]
            assert any(not [d for d in diagnostics if d["severity"] == "error"] for diagnostics in answers), \
                f"{lesson['id']}: `{span}` does not check in the language: {answers}"
            checked += 1
    assert checked >= 15, checked


@pytest.fixture(scope="module")
def server(request):
    from conftest import start_server
    playground = start_server(request, "--marble-runs-per-second", "10000", "--program-checks-per-second", "10000")
    yield playground
    playground.stop()


def test_the_course_has_its_lessons_in_order_with_names_that_say_them():
    assert len(FILES) >= 3
    ids = [lesson["id"] for lesson in LESSONS]
    assert len(ids) == len(set(ids)), "each id once"
    for path, lesson in zip(FILES, LESSONS):
        assert re.fullmatch(r"[0-9]{2,3}-[a-z0-9-]+\.json", path.name), path.name
        assert path.stem.split("-", 1)[1] == lesson["id"], f"{path.name} holds lesson {lesson['id']}"


def test_the_server_lists_the_lessons_in_file_order(server):
    status, answer = server.json("GET", "/api/lessons")
    assert status == 200
    assert [lesson["id"] for lesson in answer["lessons"]] == [lesson["id"] for lesson in LESSONS]
    assert [lesson["path"] for lesson in answer["lessons"]] == [f"/lessons/{path.name}" for path in FILES]


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson["id"] for lesson in LESSONS])
def test_every_lesson_holds(server, lesson):
    check_lesson(server, lesson)


@pytest.mark.parametrize("breaking", ["expected answer", "solution", "challenge answer", "program", "subscriptions", "a right answer called wrong",
                                      "no wrong answer", "a field unknown", "a field missing", "a field of the wrong type", "an input row twice"])
def test_the_check_fails_a_broken_copy_of_a_lesson(server, breaking):
    """The check is not a formality: a copy of a lesson broken in one place fails it, and the
    problem names the field that is wrong."""
    lesson = copy.deepcopy(LESSONS[0] if breaking != "subscriptions" else next(item for item in LESSONS if "subscriptions" in item))
    if breaking == "subscriptions":
        lesson["subscriptions"]["expected"] = ["^--!"]
        field = "subscriptions"
    elif breaking == "a right answer called wrong":
        lesson["challenge"]["wrong"].append(lesson["challenge"]["solution"])
        field = f"challenge.wrong[{len(lesson['challenge']['wrong']) - 1}]"
    elif breaking == "no wrong answer":
        lesson["challenge"]["wrong"] = []
        field = "challenge.wrong"
    elif breaking == "expected answer":
        lesson["expected"][lesson["predict"]] = "-" + lesson["expected"][lesson["predict"]]
        field = f"expected.{lesson['predict']}"
    elif breaking == "solution":
        lesson["challenge"]["solution"] = lesson["program"]
        field = "challenge.expected."
    elif breaking == "challenge answer":
        name = next(iter(lesson["challenge"]["expected"]))
        lesson["challenge"]["expected"][name] = "|"
        field = f"challenge.expected.{name}"
    elif breaking == "a field unknown":
        lesson["explanations"] = lesson.pop("explanation")
        field = "explanation"
    elif breaking == "a field missing":
        del lesson["challenge"]["task"]
        field = "challenge.task"
    elif breaking == "a field of the wrong type":
        lesson["inputs"][0]["marbles"] = 12
        field = "inputs[0].marbles"
    elif breaking == "an input row twice":
        lesson["inputs"].append(lesson["inputs"][0])
        field = "inputs[1].name"
    else:
        lesson["program"] = lesson["program"].replace(".", ".thrtle(1s).", 1)
        field = "program"
    problems = lesson_problems(server, lesson)
    assert any(problem["field"].startswith(field) for problem in problems), problems


@pytest.mark.parametrize("breaking", ["expected answer", "a letter", "challenge's program"])
def test_the_check_fails_a_broken_copy_of_a_scenario_lesson(server, breaking):
    """A lesson on a built-in scenario is held to its rules too."""
    lesson = copy.deepcopy(next(item for item in LESSONS if item.get("scenario")))
    if breaking == "expected answer":
        lesson["expected"][lesson["predict"]] = "-" + lesson["expected"][lesson["predict"]]
        field = f"expected.{lesson['predict']}"
    elif breaking == "a letter":
        letter = next(iter(lesson["inputs"][0]["values"]))  # a row's letter, said to be another value
        lesson["values"][letter] = "something else"
        field = "values"
    else:
        lesson["challenge"]["program"] = lesson["challenge"]["solution"]
        field = "challenge.program"
    problems = lesson_problems(server, lesson)
    assert any(problem["field"].startswith(field) for problem in problems), problems


def test_the_check_says_what_a_lesson_draws_for_its_author(server):
    """An author confirms the expected rows the check computes: what the program and the solution
    draw, written as a lesson writes them, and the subscriptions; a broken lesson that still runs
    is drawn too, so the page can offer the right answer."""
    lesson = copy.deepcopy(next(item for item in LESSONS if item["id"] == "cold-signals"))
    lesson["expected"]["late"] = "-"
    status, answer = server.json("POST", "/api/lessons/check", json.dumps(lesson).encode(), {"Content-Type": "application/json"})
    assert status == 200 and [problem["field"] for problem in answer["problems"]] == ["expected.late"], answer
    assert "sends ---a-b|, not -" in answer["problems"][0]["message"]
    assert answer["drawn"]["lesson"]["expected"]["late"] == "---a-b|"
    assert answer["drawn"]["lesson"]["subscriptions"]["a"] == ["--^---!"]
    assert answer["drawn"]["challenge"]["expected"]["late"] == "------x--y|"


@pytest.mark.parametrize("body, status, code", [
    (b"[1]", 400, "invalid_json"), (b"{", 400, "invalid_json"), (b'{"id": 1}', 200, None), ("x" * 70_000, 413, "payload_too_large"),
])
def test_a_lesson_that_is_no_lesson_is_answered_clearly(server, body, status, code):
    raw = body.encode() if isinstance(body, str) else body
    got, answer = server.json("POST", "/api/lessons/check", raw, {"Content-Type": "application/json"})
    assert got == status, answer
    if code:
        assert answer["error"]["code"] == code
    else:
        assert answer["problems"] and answer.get("drawn") is None, answer


def axe_clean(browser):
    from selenium_axe_python import Axe
    axe = Axe(browser)
    axe.inject()
    serious = [v for v in axe.run()["violations"] if v["impact"] in ("serious", "critical")]
    assert not serious, [(v["id"], v["help"], [n["target"] for n in v["nodes"]][:3]) for v in serious]


def predict(browser, text, subscriptions=None):
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait
    before = browser.find_elements(By.CSS_SELECTOR, ".lesson-verdict")
    if subscriptions is not None:
        lines = browser.find_element(By.ID, "subscriptions-prediction")
        lines.clear()
        lines.send_keys(subscriptions)
    field = browser.find_element(By.ID, "prediction")
    field.clear()
    field.send_keys(text, Keys.ENTER)  # the form sends: Enter, as a keyboard user would
    if before:  # the verdict of the prediction before is replaced
        WebDriverWait(browser, 10).until(expected_conditions.staleness_of(before[0]))
    wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, ".lesson-verdict"))
    return browser.find_element(By.CSS_SELECTOR, ".lesson-verdict").text


def check_challenge(browser, program):
    field = browser.find_element(By.ID, "challenge-program")
    field.clear()
    field.send_keys(program)
    field.send_keys(Keys.TAB, Keys.ENTER)  # to "Check my program"
    status = browser.find_element(By.ID, "challenge-status")
    wait(browser, lambda: status.get_attribute("data-passed") in ("true", "false") and status.text != "Checking…")
    return status


def open_lesson(browser, lesson_id):
    title = next(lesson["title"] for lesson in LESSONS if lesson["id"] == lesson_id)
    browser.execute_script("location.hash = arguments[0]", f"learn/{lesson_id}")
    wait(browser, lambda: browser.find_element(By.ID, "lesson").is_displayed()
         and browser.find_element(By.ID, "lesson-title").text.endswith(title))


def test_three_lessons_by_keyboard_with_progress_kept(browser, server):
    browser.set_window_size(1280, 900)
    browser.get("about:blank")
    browser.get_log("browser")
    browser.get(f"{server.url}/#learn")
    wait(browser, lambda: len(browser.find_elements(By.CSS_SELECTOR, "#learn-list li")) == len(LESSONS))
    browser.execute_script("localStorage.removeItem('playground.lessons')")
    axe_clean(browser)
    first, second, third = LESSONS[:3]

    # 1: a wrong prediction — each marble's mismatch drawn on the check row and listed — then right.
    open_lesson(browser, first["id"])
    assert browser.switch_to.active_element.get_attribute("id") == "lesson-title", "focus moves to the lesson"
    verdict = predict(browser, "---b-c|")
    assert verdict.startswith("Not quite")
    marks = [mark.get_attribute("data-status") for mark in browser.find_elements(By.CSS_SELECTOR, ".lesson-check .lesson-mark")]
    assert marks == ["time", "time", "time"], marks
    items = [item.text for item in browser.find_elements(By.CSS_SELECTOR, ".lesson-mismatches li")]
    assert items[0] == "⇄ b: right, but at 400 ms, not 300 ms", items
    browser.save_screenshot(str(ARTIFACTS / "lesson-wrong-prediction-1280px.png"))
    # The prediction is drawn on a row of its own, and edited there as a gallery row is: b moved
    # one frame later by keyboard rewrites the notation.
    marble = browser.find_element(By.CSS_SELECTOR, '#prediction-lane .gallery-marble[data-symbol="b"]')
    assert marble.get_attribute("data-frame") == "3"
    marble.send_keys(Keys.ARROW_RIGHT)
    wait(browser, lambda: browser.find_element(By.ID, "prediction").get_attribute("value") == "----bc|")
    assert predict(browser, first["expected"][first["predict"]]).startswith("Right")
    assert {mark.get_attribute("data-status") for mark in browser.find_elements(By.CSS_SELECTOR, ".lesson-mark")} == {"right"}
    # The challenge: failed with the unchanged program, then passed with the solution.
    status = check_challenge(browser, first["program"])
    assert status.get_attribute("data-passed") == "false" and "On the challenge's own rows, the goal sends x at 100 ms; out does not" in status.text, status.text
    status = check_challenge(browser, first["challenge"]["solution"])
    assert status.get_attribute("data-passed") == "true"
    axe_clean(browser)
    browser.save_screenshot(str(ARTIFACTS / "lesson-passed-1280px.png"))

    # 2 and 3 (and a lesson whose answer the server letters differently): right at once, challenges passed.
    by_value = next(lesson for lesson in LESSONS if lesson["id"] == "combine-latest-and-zip")
    for lesson in (second, third, by_value):
        open_lesson(browser, lesson["id"])
        assert predict(browser, lesson["expected"][lesson["predict"]]).startswith("Right")
        assert check_challenge(browser, lesson["challenge"]["solution"]).get_attribute("data-passed") == "true"
        axe_clean(browser)

    # Progress survives a reload; restarting a lesson forgets it.
    browser.refresh()
    browser.execute_script("location.hash = 'learn'")
    states = lambda: [(item.get_attribute("data-lesson"), item.find_element(By.CSS_SELECTOR, ".lesson-state").text.strip())
                      for item in browser.find_elements(By.CSS_SELECTOR, "#learn-list li")]
    try:
        wait(browser, lambda: states()[:3] == [(lesson["id"], "— done") for lesson in (first, second, third)])
    except Exception:
        raise AssertionError(states())
    open_lesson(browser, second["id"])
    browser.find_element(By.ID, "lesson-restart").send_keys(Keys.ENTER)
    wait(browser, lambda: browser.switch_to.active_element.get_attribute("id") == "prediction")
    browser.execute_script("location.hash = 'learn'")
    wait(browser, lambda: states()[1] == (second["id"], "— not started"))
    # A lesson about subscriptions: the learner predicts how `a` is subscribed, and sees it drawn.
    disposing = next(lesson for lesson in LESSONS if lesson["id"] == "disposing")
    open_lesson(browser, disposing["id"])
    predict(browser, disposing["expected"]["first"], "^--!")
    verdicts = [node.text for node in browser.find_elements(By.CSS_SELECTOR, ".lesson-verdict")]
    assert verdicts[0].startswith("Right") and verdicts[1] == "Subscriptions of a: the program made ^!; you predicted ^--!.", verdicts
    predict(browser, disposing["expected"]["first"], "^!")
    wait(browser, lambda: [node.text for node in browser.find_elements(By.CSS_SELECTOR, ".lesson-verdict")][1:] == ["Subscriptions of a: right, ^!."])
    assert browser.find_elements(By.CSS_SELECTOR, "#lesson-result .gallery-subscription"), "the subscriptions are drawn"
    browser.save_screenshot(str(ARTIFACTS / "lesson-subscriptions-1280px.png"))
    # The subscriptions of the inner signals a stream makes (`out·marbles`), one line each.
    serial = next(lesson for lesson in LESSONS if lesson["id"] == "compound-and-serial-disposables")
    open_lesson(browser, serial["id"])
    predict(browser, serial["expected"]["out"], "-^---!\n-----^!")
    wait(browser, lambda: [node.text for node in browser.find_elements(By.CSS_SELECTOR, ".lesson-verdict")][1:]
         == ["Subscriptions of out·marbles: right, -^---! -----^!."])

    # A lesson on a built-in scenario runs it on its rows (POST /api/scenarios/{id}/marbles) and
    # lists the letters for what it sends; a challenge whose programs differ only in the threads
    # their events come on is told so.
    binding = next(lesson for lesson in LESSONS if lesson["id"] == "two-way-binding")
    open_lesson(browser, binding["id"])
    assert 'A = "Ada"' in browser.find_element(By.ID, "prediction-legend").text
    assert browser.find_element(By.ID, "lesson-scenario-link").get_attribute("href").endswith("#binding")
    assert predict(browser, "(eA)-a--ab--|").startswith("Not quite")
    # A group's marbles are drawn side by side on the prediction's row, and a letter typed on a
    # marble gives it that letter (a value chosen by keyboard).
    xs = [float(node.get_attribute("cx")) for node in browser.find_elements(By.CSS_SELECTOR, "#prediction-lane .gallery-marble[data-frame='0'] circle")]
    assert len(xs) == 2 and xs[0] < xs[1], xs
    browser.find_element(By.CSS_SELECTOR, '#prediction-lane .gallery-marble[data-frame="8"]').send_keys("b")
    wait(browser, lambda: browser.find_element(By.ID, "prediction").get_attribute("value") == "(eA)-a--bb--|")
    assert browser.switch_to.active_element.get_attribute("data-symbol") == "b", "focus stays on the marble"
    assert predict(browser, binding["expected"]["fieldA"]) == "Right: fieldA sends (eA)-a--b--|.", "drawn with the lesson's letters"
    browser.save_screenshot(str(ARTIFACTS / "lesson-scenario-1280px.png"))
    schedulers = next(lesson for lesson in LESSONS if lesson["id"] == "schedulers")
    open_lesson(browser, schedulers["id"])
    assert predict(browser, "-----s-----|").startswith("Not quite")
    status = check_challenge(browser, schedulers["challenge"]["program"])
    assert status.get_attribute("data-passed") == "false", status.text
    assert "shown sends the goal's events, but 2 of them on another thread (yours on background, the goal's on session)" in status.text, status.text
    assert [code.text for code in status.find_elements(By.TAG_NAME, "code")] == ["shown", "background", "session"]
    assert check_challenge(browser, schedulers["challenge"]["solution"]).get_attribute("data-passed") == "true"

    # Every lesson's page: axe finds nothing serious, and it links its operators to the documentation
    # when the documentation is built.
    for lesson in LESSONS:
        open_lesson(browser, lesson["id"])
        axe_clean(browser)
    if (ROOT / ".build/docs-site/index.html").exists():
        open_lesson(browser, first["id"])
        wait(browser, lambda: [a.text for a in browser.find_elements(By.CSS_SELECTOR, "#lesson-docs a")] == ["Signal.skip(_:)"])
        # A lesson may name its documentation: types (a channel's) and operators alike.
        open_lesson(browser, binding["id"])
        wait(browser, lambda: [a.text for a in browser.find_elements(By.CSS_SELECTOR, "#lesson-docs a")] == ["Channel", "ChannelTerminal", "MutableProperty"])
        open_lesson(browser, schedulers["id"])
        wait(browser, lambda: len(browser.find_elements(By.CSS_SELECTOR, "#lesson-docs a")) == 5)
    browser.set_window_size(375, 812)
    open_lesson(browser, third["id"])
    width = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], "only the rows scroll sideways on a phone"
    browser.save_screenshot(str(ARTIFACTS / "lesson-375px.png"))
    check_console(browser)


def test_a_challenge_is_checked_by_ctrl_enter_and_a_typo_gets_the_editors_hint(browser, server):
    """Ctrl+Enter in a lesson's box checks it, as in the editor; a misspelt operator is answered
    with the editor's suggestion, and code is shown as code, not between backticks."""
    browser.set_window_size(1280, 900)
    browser.get(f"{server.url}/#learn")
    wait(browser, lambda: len(browser.find_elements(By.CSS_SELECTOR, "#learn-list li")) == len(LESSONS))
    open_lesson(browser, LESSONS[0]["id"])
    field = browser.find_element(By.ID, "challenge-program")
    field.clear()
    field.send_keys("out = a.tak(2)")
    field.send_keys(Keys.CONTROL, Keys.ENTER)
    status = browser.find_element(By.ID, "challenge-status")
    wait(browser, lambda: "cannot run" in status.text)
    assert "did you mean take?" in status.text, status.text
    assert "`" not in status.text, status.text
    assert [code.text for code in status.find_elements(By.TAG_NAME, "code")][:2] == ["tak", "take"]
    assert field.get_attribute("value") == "out = a.tak(2)", "Ctrl+Enter adds no line"
    # A wrong program that runs: the differences, their code as code.
    field.clear()
    field.send_keys("out = a.take(1)", Keys.CONTROL, Keys.ENTER)
    wait(browser, lambda: status.get_attribute("data-passed") == "false")
    assert status.text.startswith("Not yet.") and "`" not in status.text, status.text
    assert status.find_elements(By.TAG_NAME, "code"), "out is shown as code"


def screenshot(browser, element_id, name):
    """A screenshot of the page scrolled to `element_id` (what is kept is what a learner sees there)."""
    browser.execute_script("document.getElementById(arguments[0]).scrollIntoView({block: 'start'})", element_id)
    browser.save_screenshot(str(ARTIFACTS / name))


def lesson_by_id(lesson_id):
    return next(lesson for lesson in LESSONS if lesson["id"] == lesson_id)


@pytest.mark.parametrize("width", [1280, 375])
def test_feedback_is_drawn_and_checks_test_the_point(browser, server, width):
    """A learner's mistakes answered with what they are about: lesson 8's (cold signals) challenge solved with a
    delay fails on when `a` is subscribed; lesson 7's prediction without 3 is told 3 is missing,
    with the inner signals drawn to `x`'s disposal; lesson 18 takes Swift's `deliver(on:)` and
    shows its values as labels with their threads; a failed challenge draws yours against the
    goal; the lanes of one comparison scroll together on a phone. Screenshots kept."""
    browser.set_window_size(width, 812 if width == 375 else 800)
    browser.get(f"{server.url}/#learn")
    wait(browser, lambda: len(browser.find_elements(By.CSS_SELECTOR, "#learn-list li")) == len(LESSONS))
    browser.execute_script("localStorage.removeItem('playground.lessons')")
    result = lambda: browser.find_element(By.ID, "challenge-result")
    row_names = lambda root: [node.text for node in root.find_elements(By.CSS_SELECTOR, ".gallery-row-name")]

    # Lesson 3: `a.delay(0.5s)` sends the goal's values, but subscribes to `a` at once.
    open_lesson(browser, "cold-signals")
    status = check_challenge(browser, "late = a.delay(0.5s)")
    assert status.get_attribute("data-passed") == "false", status.text
    assert "a is subscribed at 0 ms" in status.text and "in the goal's it is subscribed at 500 ms" in status.text, status.text
    assert row_names(result()) == ["a (the challenge's row)", "a's subscriptions (yours)", "a's subscriptions (goal)"], row_names(result())
    starts = [line.get_attribute("data-start") for line in result().find_elements(By.CSS_SELECTOR, ".gallery-subscription")]
    assert starts == ["0", "5"], starts
    screenshot(browser, "challenge-task", f"lesson-3-delay-fails-{width}px.png")
    assert check_challenge(browser, lesson_by_id("cold-signals")["challenge"]["solution"]).get_attribute("data-passed") == "true"
    assert not result().find_elements(By.CSS_SELECTOR, ".gallery-row"), "a passed challenge draws no differences"

    # A failed challenge draws yours above the goal's, the differing events ringed.
    open_lesson(browser, "reading-marbles")
    if width == 1280:
        # A click on the drawing row adds a marble focused for its value: the next key names it.
        lane = browser.find_element(By.ID, "prediction-lane")
        ActionChains(browser).move_to_element_with_offset(lane, -lane.size["width"] // 2 + 5 * 30 + 15, 0).click().perform()
        focused = browser.switch_to.active_element
        assert focused.get_attribute("data-frame") == "5", focused.get_attribute("outerHTML")
        focused.send_keys("c")
        wait(browser, lambda: browser.find_element(By.ID, "prediction").get_attribute("value") == "-----c")
    status = check_challenge(browser, "out = a.take(3)")
    assert "out sends z at 500 ms; the goal does not" in status.text, status.text
    assert row_names(result()) == ["a (the challenge's row)", "out (yours)", "out (goal)", "check"], row_names(result())
    assert result().find_elements(By.CSS_SELECTOR, ".gallery-differs"), "the differences are ringed"
    screenshot(browser, "challenge-task", f"lesson-failed-challenge-{width}px.png")
    # A program that cannot run says why, over no drawing of the check before.
    status = browser.find_element(By.ID, "challenge-status")
    field = browser.find_element(By.ID, "challenge-program")
    field.clear()
    field.send_keys("out = a.tak(2)", Keys.CONTROL, Keys.ENTER)
    wait(browser, lambda: "cannot run" in status.text)
    assert not result().find_elements(By.CSS_SELECTOR, ".gallery-row"), "no stale drawing under an error"
    refused = [entry["message"] for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert all("/api/marbles" in message and "400" in message for message in refused), refused  # the refusal only

    # Lesson 9: the prediction that forgets x is disposed of is told 3 is missing, and the inner
    # signals show x's `!` at 500 ms, its 3 greyed.
    open_lesson(browser, "switch-to-latest")
    assert predict(browser, "--1-2-3-4-5|").startswith("Not quite")
    items = [item.text for item in browser.find_elements(By.CSS_SELECTOR, ".lesson-mismatches li")]
    assert any(item.startswith("✗ 3 is missing: it is never sent") for item in items), items
    assert not [item for item in items if item.startswith("≠")], items
    inner = browser.find_element(By.CSS_SELECTOR, '#lesson-result [data-inner="x"]')
    assert inner.find_element(By.CSS_SELECTOR, ".gallery-subscription").get_attribute("data-end") == "5"
    assert [node.text for node in inner.find_elements(By.CSS_SELECTOR, ".lesson-never-letter")] == ["3"]
    words = browser.find_element(By.CSS_SELECTOR, ".lesson-inner-words").text
    assert "x: subscribed at 100 ms, disposed of at 500 ms: its 3 (due at 600 ms) never comes." in words, words
    if width == 375:
        # The lanes of one comparison stay aligned: they scroll as one, from one keyboard stop.
        group = browser.find_element(By.CSS_SELECTOR, "#lesson-result .lesson-lanes")
        assert group.get_attribute("tabindex") == "0"
        assert browser.execute_script("return arguments[0].scrollWidth > arguments[0].clientWidth", group), "the lanes are wider than a phone"
        # Where each lane and each row's name begins, read at one instant.
        lefts = lambda selector: set(browser.execute_script(
            "return [...arguments[0].querySelectorAll(arguments[1])].map((node) => Math.round(node.getBoundingClientRect().left))", group, selector))
        assert len(lefts(".gallery-lane, .gallery-subscriptions")) == 1, lefts(".gallery-lane, .gallery-subscriptions")
        group.send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
        scrolled = lambda: browser.execute_script("return arguments[0].scrollLeft", group)
        wait(browser, lambda: scrolled() > 0 and scrolled() == scrolled())
        assert len(lefts(".gallery-lane, .gallery-subscriptions")) == 1, lefts(".gallery-lane, .gallery-subscriptions")
        names = lefts(".gallery-row-name")
        assert len(names) == 1 and names.pop() >= round(group.rect["x"]), "the rows' names stay in view"
        width_of_page = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        assert width_of_page[0] <= width_of_page[1], "only the lanes scroll sideways"
    screenshot(browser, "lesson-result", f"lesson-9-inner-signals-{width}px.png")

    # Lesson 18: values read as the lesson's labels, each event's thread named; Swift's spelling runs.
    schedulers = lesson_by_id("schedulers")
    open_lesson(browser, "schedulers")
    legend = browser.find_element(By.ID, "prediction-legend").text
    assert "q = tap 1 · queue" in legend and "{" not in legend, legend
    assert browser.find_element(By.ID, "lesson-code-caption").is_displayed(), "the Swift is said to be Swift"
    assert predict(browser, "-----s-----|").startswith("Not quite")
    items = " ".join(item.text for item in browser.find_elements(By.CSS_SELECTOR, ".lesson-mismatches li"))
    assert "tap 1 · queue" in items and "{" not in items, items
    threads = [node.text for node in browser.find_elements(By.CSS_SELECTOR, "#lesson-result .lesson-thread")]
    assert threads[:2] == ["queue", "session"], threads
    assert "deliver(on: session)" in schedulers["challenge"]["solution"]
    status = check_challenge(browser, schedulers["challenge"]["program"])
    assert status.get_attribute("data-passed") == "false"
    assert result().find_elements(By.CSS_SELECTOR, ".lesson-thread"), "the threads of yours and the goal's are named"
    assert check_challenge(browser, schedulers["challenge"]["solution"]).get_attribute("data-passed") == "true"
    screenshot(browser, "challenge-task", f"lesson-18-threads-{width}px.png")
    axe_clean(browser)
    check_console(browser)
