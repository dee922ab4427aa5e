"""A recording's inputs as marble rows (docs/API.md, "Recordings"): a session's real inputs,
quantized to a frame, run again on a virtual clock with the server's own timings give the live
run's events; a row moved later changes them as RAC's operators say; the same rows give the same
events every time; and on the page, the run turned into marbles and compared with a changed one."""
import json
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from test_lessons import axe_clean
from test_recordings import drive_search
from test_page import DESKTOP, PHONE, check_console, check_layout, latest, wait

JSON = {"Content-Type": "application/json"}


def virtual_search(server, steps):
    """A virtual-clock search session driven by `steps`: ("type", text) or ("wait", ms)."""
    status, created = server.json("POST", "/api/scenarios/search/sessions?clock=virtual")
    assert status == 201, created
    session = created["session"]
    for kind, value in steps:
        server.send(session, "query" if kind == "type" else "advance", str(value))
    # An advance is accepted before it runs: the recording is asked for once the clock got there.
    total = sum(value for kind, value in steps if kind == "wait")
    deadline = time.monotonic() + 10
    while server.json("GET", f"/api/sessions/{session}")[1]["virtualTime"] < total:
        assert time.monotonic() < deadline, "the clock did not get there"
        time.sleep(0.01)
    return session


def run_rows(server, scenario, rows, inputs=None):
    body = {"inputs": inputs or rows["inputs"], "values": rows["values"], "frame": rows["frame"]}
    status, answer = server.json("POST", f"/api/scenarios/{scenario}/marbles?until={rows['until']}", json.dumps(body), JSON)
    assert status == 200, answer
    return answer


def live(recording, stream):
    return [(e["t"], e["value"]) for e in recording["events"] if e["stream"] == stream and e["kind"] == "next"]


def rerun(answer, stream):
    return [(e["time"], e["value"]) for e in answer["streams"][stream]["events"] if e["kind"] == "next"]


def test_a_sessions_rows_run_again_give_its_throttled_and_results(playground):
    """The server runs with --throttle-ms 150 --service-latency-ms 200 (the tests' timings): the
    rows run with them too, as the session did."""
    session = virtual_search(playground, [("type", "Ja"), ("wait", 100), ("type", "Jav"), ("wait", 100), ("type", "Java"), ("wait", 1000)])
    status, recording = playground.json("GET", f"/api/sessions/{session}/recording")
    assert status == 200, recording
    rows = recording["rows"]
    # The finest frame that keeps every keystroke in a frame of its own: 10 ms here.
    assert rows["frame"] == 10 and rows["inputs"] == {"query": "a---------b---------c"}, rows
    assert rows["values"] == {"a": "Ja", "b": "Jav", "c": "Java"} and rows["until"] == 1200 and rows["left"] == 0
    answer = run_rows(playground, "search", rows)
    for stream in ("throttled", "results"):
        assert rerun(answer, stream) == live(recording, stream), stream
    assert live(recording, "throttled") == [(350, "Java")]  # 150 ms after the last keystroke
    assert live(recording, "results")[0][0] == 550  # and the search's 200 ms later
    # Deterministic: the same rows give the same events every time.
    assert all(run_rows(playground, "search", rows)["streams"] == answer["streams"] for _ in range(3))

    # "What if I had typed slower?" The last keystroke at 400 ms, not 200: RAC's throttle lets "Jav"
    # through after 150 quiet ms (250 ms), then "Java" 150 ms after it came (550 ms); each searches.
    moved = run_rows(playground, "search", rows, {"query": "a---------b-----------------------------c"})
    assert rerun(moved, "throttled") == [(250, "Jav"), (550, "Java")]
    assert [t for t, _ in rerun(moved, "results")] == [450, 750]


def test_a_real_time_sessions_rows_give_its_values_within_a_frame(playground):
    session = drive_search(playground, ("Ja", "Jav", "Java"))
    status, recording = playground.json("GET", f"/api/sessions/{session}/recording")
    rows = recording["rows"]
    assert rows["frame"] >= 10 and set(rows["values"].values()) == {"Ja", "Jav", "Java"}, rows
    answer = run_rows(playground, "search", rows)
    for stream in ("throttled", "results"):
        again, then = rerun(answer, stream), live(recording, stream)
        assert [value for _, value in again] == [value for _, value in then], stream
        # Quantized to the frame, and the live clock's own lateness (a few milliseconds).
        assert all(abs(a - b) <= rows["frame"] + 50 for (a, _), (b, _) in zip(again, then)), (again, then)


def test_a_programs_rows_are_its_program_with_rows_for_inputs(playground):
    program = 'input word: text\ninput go: action\nshout = go.withLatest(from: word).map { _, w in w + "!" }\n'
    status, created = playground.json("POST", "/api/pipelines?clock=virtual", program, {"Content-Type": "text/plain"})
    assert status == 201, created
    session = created["session"]
    watch = playground.watch(f"/api/sessions/{session}/events?since=0")
    for name, value in (("word", 'say "hi"\\'), ("advance", "40"), ("go", ""), ("advance", "40"), ("word", "bye"), ("advance", "20"), ("go", "")):
        playground.send(session, name, value)
    watch.wait_for(lambda events: sum(e.get("event") == "shout" for e in events) >= 3, timeout=10)
    watch.close()
    status, recording = playground.json("GET", f"/api/sessions/{session}/recording")
    rows = recording["rows"]
    assert rows["frame"] == 10 and rows["inputs"] == {"word": "a-------c", "go": "----b-----b"}, rows
    assert rows["program"].splitlines()[:2] == [
        'word = marbles("a-------c", a: "say \\"hi\\"\\\\", c: "bye", frame: 10ms)', 'go = marbles("----b-----b", b: true, frame: 10ms)']
    status, answer = playground.json("POST", f"/api/marbles?until={rows['until']}", rows["program"], {"Content-Type": "text/plain"})
    assert status == 200, answer
    assert rerun(answer, "shout") == live(recording, "shout") == [(40, 'say "hi"\\!'), (100, "bye!")]


def test_rows_say_what_they_leave_out(playground):
    steps = [step for index in range(35) for step in (("type", f"q{index}"), ("wait", 10))]
    session = virtual_search(playground, steps)
    status, recording = playground.json("GET", f"/api/sessions/{session}/recording")
    rows = recording["rows"]
    assert (rows["left"], rows["leftReason"]) == (5, "A row holds at most 30 events."), rows
    assert rows["inputs"]["query"].count("-") + 30 == len(rows["inputs"]["query"])
    assert run_rows(playground, "search", rows)["streams"]["validQuery"]["events"]


def rings(browser, stream):
    """The times of the events ringed in `stream`'s recorded lane and in this run's."""
    return browser.execute_script("""
        const item = document.querySelector(`#run-rows-outputs [data-stream="${arguments[0]}"]`);
        return Object.fromEntries([...item.querySelectorAll('svg[data-run]')].map((lane) =>
          [lane.dataset.run, [...lane.querySelectorAll('circle.gallery-differs')].map((ring) => Number(ring.dataset.time))]));""", stream)


def marked_lifelines(browser, stream):
    """How many inner subscriptions each run's lifelines under `stream` draw, and mark as differing."""
    return browser.execute_script("""
        const item = document.querySelector(`#run-rows-outputs [data-stream="${arguments[0]}"]`);
        return Object.fromEntries([...item.querySelectorAll('svg.gallery-subscriptions')].map((lines) =>
          [lines.dataset.lifelines, [lines.querySelectorAll('.gallery-subscription').length, lines.querySelectorAll('.subscription-differs').length]]));""", stream)


def test_the_page_turns_a_run_into_marbles_and_rings_what_a_moved_keystroke_changes(browser, playground):
    """Hand-worked, with --throttle-ms 150 --service-latency-ms 200: "Jav" at 0 and "Java" at 180 are
    throttled through at 150 and 330; the second search (330) cancels the first and answers at 530.
    "Java" dragged to 400 ms: "Jav"'s search runs to its end (350), "Java" comes through at 550 and is
    answered at 750, and nothing is cancelled."""
    session = virtual_search(playground, [("type", "Jav"), ("wait", 180), ("type", "Java"), ("wait", 1000)])
    browser.set_window_size(*DESKTOP)
    browser.get(f"{playground.url}/#session={session}")
    wait(browser, lambda: latest(browser, "results") != "—")
    browser.find_element(By.ID, "run-rows-open").click()
    why = lambda: browser.find_element(By.ID, "run-rows-why").text  # noqa: E731
    wait(browser, lambda: why() == "This run gives the recorded run's events (within a frame).")
    assert browser.find_element(By.ID, "run-row-query").get_attribute("value") == "a-----------------b"
    assert all(rings(browser, stream) == {"recorded": [], "rows": []} for stream in ("throttled", "results", "cancelled"))
    assert marked_lifelines(browser, "results") == {"recorded": [2, 0], "rows": [2, 0]}  # two searches, alike

    # The learner drags "Java" (b) 22 frames later, with the keyboard.
    browser.find_element(By.CSS_SELECTOR, '#run-rows .gallery-marble[data-symbol="b"]').send_keys(Keys.ARROW_RIGHT)
    for _ in range(21):
        browser.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
    wait(browser, lambda: why() == 'Why is this different? The first input that differs is query\'s Java: at 400 ms in this run, at 180 ms in the recorded one.')
    assert browser.find_element(By.ID, "run-row-query").get_attribute("value") == "a---------------------------------------b"
    assert rings(browser, "validQuery") == {"recorded": [180], "rows": [400]}
    assert rings(browser, "throttled") == {"recorded": [330], "rows": [550]}
    assert rings(browser, "searching") == {"recorded": [530], "rows": [350, 550, 750]}
    assert rings(browser, "results") == {"recorded": [530], "rows": [350, 750]}
    assert rings(browser, "cancelled") == {"recorded": [330], "rows": []}
    assert rings(browser, "errors") == {"recorded": [], "rows": []}
    words = browser.find_element(By.CSS_SELECTOR, '#run-rows-outputs [data-stream="throttled"] .run-rows-words').text
    assert words == "Java moved from 330 ms to 550 ms", words
    words = browser.find_element(By.CSS_SELECTOR, '#run-rows-outputs [data-stream="results"] .run-rows-words').text
    assert "its inner search: subscription 1 lived 150 ms–350 ms, not 150 ms–330 ms" in words, words
    # Both searches lived otherwise (150–330 and 330–530 ms before; 150–350 and 550–750 ms now): marked.
    assert marked_lifelines(browser, "results") == {"recorded": [2, 2], "rows": [2, 2]}
    axe_clean(browser)
    for size in (DESKTOP, PHONE):
        check_layout(browser, "run-rows", size)
    check_console(browser)


def test_the_page_compares_a_run_with_another_kept_by_its_link(browser, playground):
    """The same hand-worked case as two recorded runs: "Java" at 180 ms in one, at 400 ms in the other,
    kept by a link and pasted into the first's comparison; the inputs are compared too."""
    first = virtual_search(playground, [("type", "Jav"), ("wait", 180), ("type", "Java"), ("wait", 1000)])
    second = virtual_search(playground, [("type", "Jav"), ("wait", 400), ("type", "Java"), ("wait", 780)])
    status, link = playground.json("POST", f"/api/sessions/{second}/recording", "", {})
    assert status == 201, link
    browser.set_window_size(*DESKTOP)
    browser.get(f"{playground.url}/#session={first}")
    wait(browser, lambda: latest(browser, "results") != "—")
    browser.find_element(By.ID, "run-rows-open").click()
    why = lambda: browser.find_element(By.ID, "run-rows-why").text  # noqa: E731
    wait(browser, lambda: why().startswith("This run gives"))
    field = browser.find_element(By.ID, "run-compare-link")
    field.send_keys(f"{playground.url}{link['url']}")
    field.submit()
    wait(browser, lambda: why() == "Why is this different? The first input that differs is query's Java: "
                                   "at 400 ms in the other run, at 180 ms in the recorded one.")
    assert rings(browser, "input:query") == {"recorded": [180], "other": [400]}
    assert rings(browser, "throttled") == {"recorded": [330], "other": [550]}
    assert rings(browser, "results") == {"recorded": [530], "other": [350, 750]}
    assert rings(browser, "cancelled") == {"recorded": [330], "other": []}
    # A run of another scenario is not compared.
    status, ticker = playground.json("POST", f"/api/sessions/{playground.new_session('ticker')}/recording", "", {})
    field.clear()
    field.send_keys(f"{playground.url}{ticker['url']}")
    field.submit()
    wait(browser, lambda: why().startswith("That run is of another scenario or program"))
    check_console(browser)
