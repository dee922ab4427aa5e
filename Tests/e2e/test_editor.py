"""Writing, running and sharing a pipeline on the page, in a real browser (headless Chromium)."""
import re

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import ARTIFACTS
from test_diagram import latest, set_viewport
from test_page import check_console, wait

MISSPELT = """input query: text
// valid queries, then a pause in typing
valid = query
    .filter { $0.count > 2 }
    .throtle(0.3s)
"""
FIXED = MISSPELT.replace("throtle", "throttle")


@pytest.fixture
def viewport(browser):
    yield lambda width, height: set_viewport(browser, width, height)
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def open_editor(browser, playground, fragment="edit"):
    browser.get("about:blank")
    browser.get_log("browser")
    browser.get(f"{playground.url}/#{fragment}")
    wait(browser, lambda: browser.find_element(By.ID, "editor-panel").is_displayed())


def replace_program(browser, text):
    editor = browser.find_element(By.ID, "program")
    editor.send_keys(Keys.CONTROL, "a")
    editor.send_keys(Keys.DELETE)
    editor.send_keys(text)
    return editor


def problems(browser):
    return browser.find_elements(By.CSS_SELECTOR, "#problems button.problem")


def test_a_misspelt_operator_is_shown_at_its_line_then_the_fixed_program_runs(browser, make_playground, viewport):
    playground = make_playground()
    viewport(1280, 800)
    open_editor(browser, playground)
    replace_program(browser, MISSPELT)
    wait(browser, lambda: problems(browser))
    [problem] = problems(browser)
    assert problem.get_attribute("data-line") == "5" and problem.get_attribute("data-column") == "6"
    assert "throtle" in problem.text and "`throttle`" in problem.text, "the suggestion is shown"
    assert "line 5" in browser.find_element(By.ID, "problems-summary").text, "announced (a live status)"
    marked = browser.find_elements(By.CSS_SELECTOR, "#editor-highlight .problem-error")
    assert [mark.text for mark in marked] == ["throtle"], "underlined where it is"
    numbers = browser.find_element(By.ID, "editor-gutter").find_elements(By.CSS_SELECTOR, "span")
    assert [n.text for n in numbers if n.get_attribute("class") == "gutter-error"] == ["5"]
    browser.save_screenshot(str(ARTIFACTS / "editor-problem-1280px.png"))

    replace_program(browser, FIXED)
    wait(browser, lambda: browser.find_element(By.ID, "problems-summary").text == "No problems found.")
    browser.find_element(By.ID, "program").send_keys(Keys.CONTROL, Keys.ENTER)
    wait(browser, lambda: browser.find_element(By.ID, "connection").text == "Live")
    assert "session=" in browser.current_url
    browser.find_element(By.ID, "input-query").send_keys("swedish")
    wait(browser, lambda: latest(browser, "valid") == "swedish")
    stage = '.glyph[data-stream="valid·filter"]'
    assert not browser.find_elements(By.CSS_SELECTOR, stage), "a chain's stages start collapsed"
    expander = browser.find_element(By.CSS_SELECTOR, 'li.stream[data-stream="valid"] .expander')
    assert expander.get_attribute("aria-expanded") == "false"
    expander.click()
    wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, stage))
    assert latest(browser, "valid·filter") == "swedish"
    assert browser.find_element(By.CSS_SELECTOR, 'li.stream[data-stream="valid"] .expander').get_attribute("aria-expanded") == "true"
    lines = {line.get_attribute("data-line"): line.get_attribute("data-stream")
             for line in browser.find_elements(By.CSS_SELECTOR, "#source-code .defines")}
    assert lines == {"3": "valid", "4": "valid·filter"}, "each stage's line is marked in the source"
    check_console(browser)
    for width in (1280, 375):
        viewport(width, 800)
        browser.execute_script("window.dispatchEvent(new Event('resize'))")
        page = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        assert page[0] <= page[1], f"no sideways scrolling of the page at {width} px"
        browser.save_screenshot(str(ARTIFACTS / f"editor-running-{width}px.png"))


def test_the_program_link_reproduces_the_program_in_a_new_session(browser, make_playground, viewport):
    playground = make_playground()
    viewport(1280, 800)
    open_editor(browser, playground)
    replace_program(browser, FIXED)
    browser.find_element(By.ID, "run").click()
    wait(browser, lambda: browser.find_element(By.ID, "connection").text == "Live")
    first_session = browser.current_url.split("session=")[1]
    program_link = browser.find_element(By.ID, "program-link").get_attribute("href")
    session_link = browser.find_element(By.ID, "session-link").get_attribute("href")
    assert "#program=" in program_link and session_link.endswith(f"#session={first_session}")
    first = browser.current_window_handle
    browser.switch_to.new_window("window")
    browser.get(program_link)
    wait(browser, lambda: browser.find_element(By.ID, "connection").text == "Live")
    assert browser.find_element(By.ID, "program").get_attribute("value") == FIXED
    second_session = browser.current_url.split("session=")[1]
    assert second_session != first_session, "a program link starts a session of its own"
    browser.get(session_link)  # the session link joins the first session, program and all
    wait(browser, lambda: browser.find_element(By.ID, "connection").text == "Live")
    assert browser.find_element(By.ID, "program").get_attribute("value") == FIXED
    browser.find_element(By.ID, "input-query").send_keys("danish")
    wait(browser, lambda: latest(browser, "valid") == "danish")  # every keystroke posted before the window goes
    browser.close()
    browser.switch_to.window(first)
    wait(browser, lambda: latest(browser, "valid") == "danish")  # typed in the other window
    check_console(browser)


def test_edit_this_pipeline_with_rate_limit_instead_of_throttle(browser, make_playground, viewport):
    playground = make_playground()
    viewport(1280, 800)
    browser.get("about:blank")
    browser.get(f"{playground.url}/#search")
    wait(browser, lambda: browser.find_element(By.ID, "connection").text == "Live")
    browser.find_element(By.ID, "edit-link").click()
    wait(browser, lambda: "throttle(0.5s)" in browser.find_element(By.ID, "program").get_attribute("value"))

    def throttled_after_typing():
        before = browser.current_url
        browser.find_element(By.ID, "run").click()
        wait(browser, lambda: browser.current_url != before)  # a new session, not the one before
        wait(browser, lambda: browser.find_element(By.ID, "connection").text == "Live")
        browser.find_element(By.ID, "input-query").send_keys("swedish")  # one burst of typing
        wait(browser, lambda: latest(browser, "throttled") == "swedish" and "Swedish" in latest(browser, "results"))
        return int(browser.find_element(By.CSS_SELECTOR, 'li.stream[data-stream="throttled"] .count').text.split()[0])

    assert throttled_after_typing() == 1, "throttle: only the value that ends the burst"
    text = browser.find_element(By.ID, "program").get_attribute("value").replace("throttle(0.5s)", "rateLimit(0.5s)")
    replace_program(browser, text)
    wait(browser, lambda: browser.find_element(By.ID, "problems-summary").text == "No problems found.")
    assert throttled_after_typing() >= 2, "rateLimit: the first value at once, the latest at the end of the window"
    log = [entry.text for entry in browser.find_elements(By.CSS_SELECTOR, '#log li[data-stream="throttled"]')
           if " next " in entry.text]  # values, not the subscription's start
    # The first value let through (the log is newest first), with the subscription that carried it.
    assert re.search(r"throttled next swe \(subscription \d+\)$", log[-1]), log
    check_console(browser)


def test_the_editor_and_its_problems_by_keyboard_alone(browser, make_playground, viewport):
    from selenium_axe_python import Axe

    playground = make_playground()
    viewport(1280, 800)
    open_editor(browser, playground)
    editor = browser.switch_to.active_element
    assert editor.get_attribute("id") == "program", "the editor has focus when it opens"
    editor.send_keys(Keys.CONTROL, "a")  # it opens on an example: typing replaces it
    editor.send_keys(MISSPELT)
    wait(browser, lambda: problems(browser))
    editor.send_keys(Keys.TAB)  # Tab leaves the editor (it does not type a tab): to the problem list
    focused = browser.switch_to.active_element
    assert "problem" in focused.get_attribute("class")
    focused.send_keys(Keys.ENTER)  # moves the caret to the problem
    active = browser.switch_to.active_element
    assert active.get_attribute("id") == "program"
    caret = browser.execute_script("return arguments[0].selectionStart", active)
    assert caret == MISSPELT.index("throtle"), "the caret is at the misspelt operator"
    active.send_keys(Keys.DELETE * len("throtle"), "rateLimit")
    wait(browser, lambda: browser.find_element(By.ID, "problems-summary").text == "No problems found.")
    active.send_keys(Keys.CONTROL, Keys.ENTER)
    wait(browser, lambda: browser.find_element(By.ID, "connection").text == "Live")
    axe = Axe(browser)
    axe.inject()
    results = axe.run()
    serious = [v for v in results["violations"] if v["impact"] in ("serious", "critical")]
    assert not serious, [(v["id"], v["help"], [n["target"] for n in v["nodes"]][:3]) for v in serious]
    check_console(browser)


def test_the_editor_opens_with_something_to_run(browser, make_playground, viewport):
    """At #edit the editor opens on the first example; once the learner has written a program,
    on that program, after a reload too."""
    playground = make_playground()
    viewport(1280, 800)
    _, examples = playground.json("GET", "/api/pipelines/examples")
    first = examples["examples"][0]["program"]
    open_editor(browser, playground)
    editor = browser.find_element(By.ID, "program")
    wait(browser, lambda: editor.get_attribute("value") == first)
    mine = FIXED + "// mine\n"
    replace_program(browser, mine)
    # Kept once the editor has paused to check it.
    wait(browser, lambda: browser.execute_script("return localStorage.getItem('playground.lastProgram')") == mine)
    open_editor(browser, playground)
    wait(browser, lambda: browser.find_element(By.ID, "program").get_attribute("value") == mine)
    assert first != mine
    check_console(browser)


def test_another_librarys_operator_name_is_answered_with_this_projects_spelling(browser, make_playground, viewport):
    """A learner from RxSwift or RxJS types `debounce` and `switchMap`: each problem says what it
    is called here and how it differs — from the gallery's table of names, the one its search
    reads (typing `switchMap` there finds flatMap(.latest))."""
    playground = make_playground()
    viewport(1280, 800)
    open_editor(browser, playground)
    replace_program(browser, "input query: text\nslow = query.debounce(0.3s)\nlatest = query.switchMap { just($0) }\n")
    wait(browser, lambda: len(problems(browser)) == 2)
    debounce, switch_map = problems(browser)
    assert "`debounce`" in debounce.text and "here it is `throttle`" in debounce.text and "debounce" in debounce.text
    assert "RxJS calls it `switchMap`: here it is `flatMap(.latest)`" in switch_map.text
    browser.save_screenshot(str(ARTIFACTS / "editor-other-library-names-1280px.png"))
    browser.get(f"{playground.url}/#gallery")
    search = browser.find_element(By.ID, "gallery-search")
    wait(browser, lambda: search.is_displayed())
    search.send_keys("switchMap")
    wait(browser, lambda: [a.text for a in browser.find_elements(By.CSS_SELECTOR, "#gallery-list a")] == ["flatMap(.latest)"])
    check_console(browser)


def test_compare_with_adds_a_variant_whose_different_events_are_ringed(browser, make_playground, viewport):
    """By keyboard: with the caret in `valid`'s definition, "Compare with…" adds `valid2`, a copy
    with its expression selected, and a `// compare: valid, valid2` line; typed over, run, and fed
    "abcdef" a key at a time, the diagram rings `valid`'s "abc" and "abcd" (valid2 wants more than
    4 characters) and nothing of "abcde" and "abcdef", which both send."""
    playground = make_playground()
    viewport(1280, 900)
    open_editor(browser, playground)
    editor = replace_program(browser, "input query: text\nvalid = query.filter { $0.count > 2 }\n")
    browser.execute_script("arguments[0].setSelectionRange(30, 30)", editor)  # inside line 2
    browser.find_element(By.ID, "compare").send_keys(Keys.ENTER)
    text = editor.get_attribute("value")
    assert text == ("input query: text\nvalid = query.filter { $0.count > 2 }\n"
                    "valid2 = query.filter { $0.count > 2 }\n\n// compare: valid, valid2"), text
    assert browser.switch_to.active_element == editor
    selected = browser.execute_script("return arguments[0].value.slice(arguments[0].selectionStart, arguments[0].selectionEnd)", editor)
    assert selected == "query.filter { $0.count > 2 }"
    editor.send_keys("query.filter { $0.count > 4 }")
    assert "valid2 is a copy of valid" in browser.find_element(By.ID, "compare-status").text
    wait(browser, lambda: browser.find_element(By.ID, "problems-summary").text == "No problems found.")
    editor.send_keys(Keys.CONTROL, Keys.ENTER)
    wait(browser, lambda: browser.find_element(By.ID, "connection").text == "Live")
    field = browser.find_element(By.ID, "input-query")
    field.send_keys("abc")
    wait(browser, lambda: latest(browser, "valid") == "abc")
    field.send_keys("def")
    wait(browser, lambda: latest(browser, "valid2") == "abcdef" and latest(browser, "valid") == "abcdef")
    ringed = lambda stream: browser.find_elements(By.CSS_SELECTOR, f'.glyph.differs[data-stream="{stream}"]')
    # Keys typed a few milliseconds apart may share a glyph (a stack): a glyph is ringed when any
    # of its events is missing from the other row.
    wait(browser, lambda: ringed("valid") and not ringed("valid2"))
    labels = " ".join(glyph.get_attribute("aria-label") for glyph in ringed("valid"))
    assert labels.endswith("not in every compared row") and "input query abc (" in labels and "input query abcd (" in labels, labels
    unringed = browser.find_elements(By.CSS_SELECTOR, '.glyph:not(.differs)[data-stream="valid2"]')
    assert unringed, "valid2's events are all in valid too"
    browser.save_screenshot(str(ARTIFACTS / "editor-compare-1280px.png"))
    check_console(browser)
