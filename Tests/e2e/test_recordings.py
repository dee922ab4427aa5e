"""Recordings (docs/API.md, "Recordings"): a session's recording — what it runs and the events it
kept, its inputs among them — answered, kept as a link of kind `run`, and opened by that link in a
fresh browser as a read-only replay showing the same events."""
import json
import time

from selenium.webdriver.common.by import By

from conftest import new_browser
from test_lessons import axe_clean
from test_page import check_console, wait


def drive_search(server, queries=("sw", "swi", "swift")):
    """A real-time search session with `queries` typed, once the results after the last came (on a
    busy machine the keystrokes may stand further apart than the throttle: a search each)."""
    session = server.new_session("search")
    watch = server.watch(f"/api/sessions/{session}/events?since=0")
    for query in queries:
        server.send(session, "query", query)

    def answered(events):
        names = [(e.get("event"), e["json"].get("value")) for e in events if "json" in e]
        typed = [index for index, (name, value) in enumerate(names) if (name, value) == ("input:query", queries[-1])]
        return bool(typed) and any(name == "results" for name, _ in names[typed[0]:])
    watch.wait_for(answered, timeout=10)
    watch.close()
    return session


def test_a_recording_is_what_the_session_kept_and_keeps_as_a_run(playground):
    session = drive_search(playground)
    status, recording = playground.json("GET", f"/api/sessions/{session}/recording")
    assert status == 200, recording
    assert (recording["version"], recording["scenario"], recording["clock"], recording["lost"]) == (1, "search", "real", 0)
    streams = [event["stream"] for event in recording["events"]]
    assert streams.count("input:query") == 3 and "throttled" in streams and "results" in streams
    assert recording["made"] == len(recording["events"])
    assert [event["seq"] for event in recording["events"]] == list(range(1, recording["made"] + 1))
    inputs = [(event["value"], event["t"]) for event in recording["events"] if event["stream"] == "input:query"]
    assert [value for value, _ in inputs] == ["sw", "swi", "swift"] and all(t >= 0 for _, t in inputs)

    status, link = playground.json("POST", f"/api/sessions/{session}/recording", json.dumps({"title": "My search"}),
                                   {"Content-Type": "application/json"})
    assert status == 201, link
    assert (link["kind"], link["title"], link["url"]) == ("run", "My search", f"/s/{link['id']}")
    status, kept = playground.json("GET", f"/api/links/{link['id']}")
    run = json.loads(kept["content"])
    assert run["events"][:len(recording["events"])] == recording["events"]
    # A run is kept from its session only: posted as content it is refused.
    status, body = playground.json("POST", "/api/links", json.dumps({"kind": "run", "title": "x", "content": kept["content"]}),
                                   {"Content-Type": "application/json"})
    assert (status, body["error"]["code"]) == (400, "invalid_link")
    for body, status_code, code in (("{", 400, "invalid_json"), ('{"title": ""}', 400, "invalid_value"), ('{"colour": 1}', 400, "invalid_value")):
        status, answer = playground.json("POST", f"/api/sessions/{session}/recording", body, {"Content-Type": "application/json"})
        assert (status, answer["error"]["code"]) == (status_code, code), body
    status, _, _ = playground.request("POST", f"/api/sessions/{session}/recording", "x", {"Content-Type": "text/plain"})
    assert status == 415
    status, answer = playground.json("GET", "/api/sessions/" + "0" * 32 + "/recording")
    assert (status, answer["error"]["code"]) == (404, "unknown_session")


def test_a_recording_says_what_its_session_no_longer_keeps(make_playground):
    server = make_playground("--event-buffer", "16")
    session = server.new_session("ticker")  # a tick each 100 ms here
    watch = server.watch(f"/api/sessions/{session}/events")
    watch.wait_for(lambda events: len(events) >= 20, timeout=10)
    watch.close()
    status, recording = server.json("GET", f"/api/sessions/{session}/recording")
    assert len(recording["events"]) == 16 and recording["lost"] == recording["made"] - 16 > 0, recording
    assert recording["events"][0]["seq"] == recording["lost"] + 1


def test_a_kept_run_opens_as_a_replay_in_a_fresh_browser(playground):
    session = drive_search(playground)
    status, link = playground.json("POST", f"/api/sessions/{session}/recording", "", {})
    assert status == 201, link
    recording = json.loads(playground.json("GET", f"/api/links/{link['id']}")[1]["content"])  # what was kept
    browser = new_browser()
    try:
        browser.get(f"{playground.url}{link['url']}")
        connection = lambda: browser.find_element(By.ID, "connection").text  # noqa: E731
        wait(browser, lambda: connection().startswith("Replay:"))
        assert connection() == f"Replay: {len(recording['events'])} events"
        assert browser.find_element(By.ID, "scenario-title").text == "A run of Throttled search"
        # The same events: each throttled and results value of the session is in the replay's log.
        log = browser.find_element(By.ID, "log").text
        throttled = [event["value"] for event in recording["events"] if event["stream"] == "throttled" and event["kind"] == "next"]
        assert throttled, "the run has throttled values to compare"
        for value in throttled:
            assert f"throttled next {value}" in log, log[:2000]  # the log writes a string as it is
        assert not browser.find_element(By.ID, "inputs").is_displayed(), "a replay is read-only"
        assert not browser.find_element(By.ID, "clock").is_displayed()
        axe_clean(browser)
        check_console(browser)
    finally:
        browser.quit()


def test_a_halted_programs_run_keeps_what_it_did_and_says_where_it_stopped(playground):
    """A program stopped by its step budget: its recording holds everything it sent until then and
    the error that stopped it, and its replay says where."""
    program = "x = just(1).repeat().scan([]) { a, v in a + [v] }\n"
    status, created = playground.json("POST", "/api/pipelines?clock=virtual", program, {"Content-Type": "text/plain"})
    assert status == 201, created
    session = created["session"]
    # Its recording, once the budget stopped it: its subscription to x is then no longer live. (Its
    # values are long arrays: a watcher reading them on a busy machine may be dropped as too slow.)
    deadline = time.monotonic() + 30
    while playground.json("GET", f"/api/sessions/{session}")[1]["subscriptions"].get("x", {}).get("live", 1):
        assert time.monotonic() < deadline, playground.json("GET", f"/api/sessions/{session}")[1]
        time.sleep(0.05)
    status, recording = playground.json("GET", f"/api/sessions/{session}/recording")
    values = [e for e in recording["events"] if e["stream"] == "x" and e["kind"] == "next"]
    ends = [e for e in recording["events"] if e["stream"] == "x" and e["kind"] == "error"]
    assert ends and ends[0]["value"]["code"] == "budget_exceeded" and values, recording["events"][-3:]
    assert recording["events"].index(ends[0]) > recording["events"].index(values[-1]), "it ends where it stopped"
    status, link = playground.json("POST", f"/api/sessions/{session}/recording", "", {})
    assert status == 201, link
    browser = new_browser()
    try:
        browser.get(f"{playground.url}{link['url']}")
        wait(browser, lambda: "the program was stopped at" in browser.find_element(By.ID, "connection").text)
        assert "budget_exceeded" not in browser.find_element(By.ID, "connection").text  # said in words
        assert " on x" in browser.find_element(By.ID, "connection").text
        check_console(browser)
    finally:
        browser.quit()


def test_keeping_runs_counts_against_the_rate_of_links_kept(make_playground):
    server = make_playground("--link-saves-per-second", "1", "--link-save-burst", "2")
    session = server.new_session("ticker")
    statuses = [server.json("POST", f"/api/sessions/{session}/recording", "", {})[0] for _ in range(4)]
    assert statuses[:2] in ([201, 201], [201, 200]) and 429 in statuses[2:], statuses


def test_an_address_keeps_at_most_its_bytes_of_links_an_hour(make_playground):
    """A run is up to a MiB: the count of links kept would let one address fill the shared store.
    With --link-bytes-per-hour at its least (2 MiB), a second run of about a MiB is refused from
    that address, with Retry-After and the flag named; another address behind the proxy keeps one."""
    server = make_playground("--trust-proxy", "--link-bytes-per-hour", str(2 << 20))
    program = 'x = interval(10ms).map { v in "' + "z" * 1000 + '\\(v)" }\n'
    status, created = server.json("POST", "/api/pipelines?clock=virtual", program, {"Content-Type": "text/plain"})
    assert status == 201, created
    session = created["session"]
    server.send(session, "advance", "15000")
    deadline = time.monotonic() + 30
    while server.json("GET", f"/api/sessions/{session}")[1]["virtualTime"] < 15000:
        assert time.monotonic() < deadline, "the clock did not get there"
        time.sleep(0.05)
    first = {"Content-Type": "application/json", "X-Forwarded-For": "203.0.113.7"}
    status, kept = server.json("POST", f"/api/sessions/{session}/recording", '{"title": "one"}', first)
    assert status == 201, kept
    assert len(server.json("GET", f"/api/links/{kept['id']}")[1]["content"]) > 1_000_000, "a run of about a MiB"
    status, headers, body = server.request("POST", f"/api/sessions/{session}/recording", '{"title": "two"}', first)
    refusal = json.loads(body)["error"]
    assert (status, refusal["code"]) == (429, "rate_limited") and "--link-bytes-per-hour" in refusal["message"], refusal
    assert int(headers["Retry-After"]) >= 1
    other = {"Content-Type": "application/json", "X-Forwarded-For": "203.0.113.8"}
    status, kept = server.json("POST", f"/api/sessions/{session}/recording", '{"title": "three"}', other)
    assert status == 201, kept
