"""A failed challenge shows the rows it ran on (issue #72, docs/LESSONS.md): in Chromium, a known
wrong answer (`challenge.wrong`) of lessons 5, 9, 12 and 20 fails, and the failure draws the
challenge's own input rows (named, each with its marbles) above yours against the goal's; a
challenge about inner signals or subscriptions draws those of both programs, labelled — lesson
5's and 9's inner signals of `a`'s nested rows, lesson 20's runs of its `createSignal` block, lesson 12's
subscriptions to `a` (two in yours, one in the goal's, whose one shared subscription the lesson's
own run draws too). Screenshots of lessons 5 and 20 at 1280 and 375 px kept in pytest's tmp dir."""
import re

import pytest
from selenium.webdriver.common.by import By

from test_lessons import axe_clean, check_challenge, lesson_by_id, open_lesson, predict, server  # noqa: F401 (the fixture: one server for the module)
from test_page import wait


def result(browser):
    return browser.find_element(By.ID, "challenge-result")


def row_names(root):
    return [node.text for node in root.find_elements(By.CSS_SELECTOR, ".gallery-row-name")]


def marble_count(notation):
    """How many values a row in marble notation sends: its characters that are not time, a group or an end."""
    return len(re.sub(r"[-()|#^! ]", "", notation))


def fail(browser, server, lesson_id, width):
    """Lesson `lesson_id` opened at `width` px, its challenge checked with its first known wrong answer."""
    browser.set_window_size(width, 812 if width == 375 else 900)
    browser.get(f"{server.url}/#learn")
    browser.execute_script("localStorage.removeItem('playground.lessons')")
    open_lesson(browser, lesson_id)
    lesson = lesson_by_id(lesson_id)
    status = check_challenge(browser, lesson["challenge"]["wrong"][0])
    assert status.get_attribute("data-passed") == "false", status.text
    wait(browser, lambda: result(browser).find_elements(By.CSS_SELECTOR, ".gallery-row"))
    return lesson


def assert_input_rows(browser, lesson):
    """The challenge's rows come first, each named as the challenge's, its lane saying its marbles and drawing each value."""
    inputs = lesson["challenge"]["inputs"]
    names = row_names(result(browser))
    assert names[:len(inputs)] == [f"{row['name']} (the challenge's row)" for row in inputs], names
    for row in inputs:
        drawn = result(browser).find_element(By.CSS_SELECTOR, f'[data-input="{row["name"]}"]')
        lane = drawn.find_element(By.CSS_SELECTOR, ".gallery-lane")
        assert lane.get_attribute("aria-label") == f"{row['name']}, the challenge's row: {row['marbles']}", lane.get_attribute("aria-label")
        assert len(lane.find_elements(By.CSS_SELECTOR, ".gallery-circle")) == marble_count(row["marbles"])
        assert drawn.find_element(By.CSS_SELECTOR, ".gallery-output-notation").text.startswith(row["marbles"])
    # They share the one sideways scroll of yours and the goal's rows: the same time axis.
    group = result(browser).find_element(By.CSS_SELECTOR, ".lesson-lanes")
    assert "challenge's rows" in group.get_attribute("aria-label"), group.get_attribute("aria-label")
    widths = {lane.get_attribute("width") for lane in group.find_elements(By.CSS_SELECTOR, "svg.gallery-lane")}
    assert len(widths) == 1, widths


def inner_rows(browser, whose):
    """Lesson 5's and 9's inner signals drawn for one program: `{letter: (start, end)}` of each one's subscription."""
    rows = result(browser).find_elements(By.CSS_SELECTOR, f'[data-inner][data-whose="{whose}"]')
    spans = {}
    for row in rows:
        letter = row.get_attribute("data-inner")
        assert row.find_element(By.CSS_SELECTOR, ".gallery-row-name").text == f"{letter} (inner, {whose})"
        assert row.find_element(By.CSS_SELECTOR, ".gallery-lane").get_attribute("aria-label").startswith(f"{letter}, inner, {whose}: ")
        line = row.find_element(By.CSS_SELECTOR, ".gallery-subscription")
        spans[letter] = (line.get_attribute("data-start"), line.get_attribute("data-end"))
    return spans


def row_named(root, name):
    rows = [row for row in root.find_elements(By.CSS_SELECTOR, ".gallery-row") if row.find_element(By.CSS_SELECTOR, ".gallery-row-name").text == name]
    assert rows, f"no row {name!r} in {row_names(root)}"
    return rows[0]


def subscription_lines(browser, name):
    """The subscription lines of the row named `name`, as (start, end) frames."""
    row = row_named(result(browser), name)
    label = row.find_element(By.CSS_SELECTOR, ".gallery-subscriptions").get_attribute("aria-label")
    assert label.startswith(f"{name}: "), label
    return [(line.get_attribute("data-start"), line.get_attribute("data-end")) for line in row.find_elements(By.CSS_SELECTOR, ".gallery-subscription")]


def keep_screenshot(browser, tmp_path_factory, name):
    """The failure as a learner sees it, from the challenge's task to its last row (the window made
    as tall as that, its width kept), kept in pytest's tmp dir."""
    path = tmp_path_factory.mktemp("challenge-failures") / name
    size = browser.get_window_size()
    tall = browser.execute_script("const r = document.getElementById('challenge-result').getBoundingClientRect();"
                                  "const t = document.getElementById('challenge-task').getBoundingClientRect(); return Math.ceil(r.bottom - t.top) + 200")
    browser.set_window_size(size["width"], max(size["height"], tall))
    browser.execute_script("document.getElementById('challenge-task').scrollIntoView({block: 'start'})")
    browser.save_screenshot(str(path))
    browser.set_window_size(size["width"], size["height"])
    print(path)


def assert_fits(browser, width):
    """Nothing but the lanes' own scroll is wider than the window."""
    assert browser.execute_script("return document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize("width", [1280, 375])
def test_lesson_5_failure_draws_its_rows_and_both_programs_inner_signals(browser, server, tmp_path_factory, width):
    fail(browser, server, "compound-and-serial-disposables", width)
    assert_input_rows(browser, lesson_by_id("compound-and-serial-disposables"))
    # concat waits for x to end (at 600 ms) before it subscribes to y, and take(3) disposes of y at
    # 700 ms; the goal's flatMap(.latest) disposes of x when y comes (400 ms), its serial
    # disposable swapping them, and take(3) disposes of y at 700 ms.
    assert inner_rows(browser, "yours") == {"x": ("1", "6"), "y": ("6", "7")}, inner_rows(browser, "yours")
    assert inner_rows(browser, "the goal's") == {"x": ("1", "4"), "y": ("4", "7")}, inner_rows(browser, "the goal's")
    assert not [name for name in row_names(result(browser)) if "flatMap" in name], "a stage of the chain is no inner signal"
    words = [node.text for node in result(browser).find_elements(By.CSS_SELECTOR, ".lesson-inner")]
    assert len(words) == 2 and words[0].startswith("Inside your out") and words[1].startswith("Inside the goal's out"), words
    assert "y: subscribed at 600 ms" in words[0] and "y: subscribed at 400 ms" in words[1], words
    assert_fits(browser, width)
    axe_clean(browser)
    keep_screenshot(browser, tmp_path_factory, f"lesson-5-failure-{width}px.png")


def test_lesson_9_failure_draws_its_rows_and_both_programs_inner_signals(browser, server):
    fail(browser, server, "switch-to-latest", 1280)
    assert_input_rows(browser, lesson_by_id("switch-to-latest"))
    yours, goal = inner_rows(browser, "yours"), inner_rows(browser, "the goal's")
    assert set(yours) == set(goal) == {"x", "y"}, (yours, goal)
    assert int(yours["y"][0]) > int(goal["y"][0]), (yours, goal)  # concat subscribes to y only once x is done


@pytest.mark.parametrize("width", [1280, 375])
def test_lesson_20_failure_draws_its_rows_and_both_programs_calls(browser, server, tmp_path_factory, width):
    fail(browser, server, "callbacks-into-signals", width)
    assert_input_rows(browser, lesson_by_id("callbacks-into-signals"))
    yours = subscription_lines(browser, "createSignal() inside r (yours)")
    goal = subscription_lines(browser, "createSignal() inside r (goal)")
    # Both programs run the createSignal block for each press; the goal's latest cancels the first call when b
    # comes (400 ms), yours (concat) lets it run and calls again only once it answered.
    assert len(yours) == len(goal) == 2, (yours, goal)
    assert goal[0][1] == "4" and goal[1][0] == "4", goal
    assert int(yours[1][0]) > 4 and yours[0][1] == yours[1][0], yours
    assert_fits(browser, width)
    keep_screenshot(browser, tmp_path_factory, f"lesson-20-failure-{width}px.png")


def test_lesson_12_draws_its_one_shared_subscription_and_the_failures_two(browser, server):
    lesson = lesson_by_id("sharing")
    browser.set_window_size(1280, 900)
    browser.get(f"{server.url}/#learn")
    open_lesson(browser, "sharing")
    predict(browser, lesson["expected"]["late"])
    row = row_named(browser.find_element(By.ID, "lesson-result"), "a's subscriptions")
    assert len(row.find_elements(By.CSS_SELECTOR, ".gallery-subscription")) == 1
    assert row.find_element(By.CSS_SELECTOR, ".gallery-subscriptions").get_attribute("aria-label").startswith("a's subscriptions: 1 subscription:")

    fail(browser, server, "sharing", 1280)
    assert_input_rows(browser, lesson)
    assert len(subscription_lines(browser, "a's subscriptions (yours)")) == 2
    assert len(subscription_lines(browser, "a's subscriptions (goal)")) == 1


def test_lesson_18s_events_on_another_thread_are_marked_on_the_check_row_with_a_legend(browser, server):
    """The verdict says "on another thread": the check row says so too, with a legend of its marks
    and no mark covering another."""
    fail(browser, server, "schedulers", 1280)
    rows = [row for row in result(browser).find_elements(By.CSS_SELECTOR, ".gallery-row")
            if row.find_elements(By.CSS_SELECTOR, ".lesson-check")]
    assert rows, "a check row"
    marks = rows[0].find_elements(By.CSS_SELECTOR, ".lesson-mark")
    statuses = [mark.get_attribute("data-status") for mark in marks]
    # Both values came on another thread; the completion is no thread's.
    assert statuses.count("thread") == 2 and statuses.count("right") == 1, statuses
    legend = rows[0].find_element(By.CSS_SELECTOR, ".gallery-output-notation").text
    assert "◇ the right event on another thread" in legend, legend
    boxes = [mark.rect for mark in marks]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            apart = a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"] or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"]
            assert apart, (a, b)
