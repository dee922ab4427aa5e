"""Completing and failing inputs over HTTP (`?event=completed|error`): the end travels down the
pipeline as `completed` / `error` events and as `|` / `#` on the marbles."""
import json
import subprocess

from test_sessions import has

SEARCH_STREAMS = ["validQuery", "throttled", "searching", "results", "cancelled", "errors"]


def curl(command):
    return subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=10).stdout


def test_completing_the_query_ends_the_search_pipeline_in_order(make_playground):
    playground = make_playground(fast=False)
    base = playground.url
    session = json.loads(curl(f"curl -s -X POST '{base}/api/scenarios/search/sessions?clock=virtual'"))["session"]
    inputs = f"{base}/api/sessions/{session}/inputs"
    assert json.loads(curl(f"curl -s -d french {inputs}/query")) == {"accepted": True}
    assert json.loads(curl(f"curl -s -X POST '{inputs}/query?event=completed'")) == {"accepted": True}
    assert json.loads(curl(f"curl -s -d 1000 {inputs}/advance")) == {"accepted": True}
    watcher = playground.watch(f"/api/sessions/{session}/events", last_event_id="0")
    # The input's own end is recorded first (`input:query`), then each stage's, in pipeline order.
    # (The search in flight, `results·search`, completes too: a source inside a stream, not a row.)
    ends = lambda events: [e["json"]["stream"] for e in events if e["json"]["kind"] == "completed" and "·" not in e["json"]["stream"]]
    watcher.wait_for(lambda events: len(ends(events)) == len(SEARCH_STREAMS) + 1)
    ended = ends(watcher.events)
    assert ended == ["input:query", *SEARCH_STREAMS]
    assert watcher.values("throttled") == ["french"], "throttle sends its pending value on completion"
    assert watcher.values("results"), "the search in flight finishes before the end"
    watcher.close()

    marbles = curl(f"curl -s '{base}/api/sessions/{session}/marbles'")
    lines = {line.split(":")[0]: line for line in marbles.splitlines() if not line.startswith((" ", "#"))}
    for stream in SEARCH_STREAMS:
        assert "|" in lines[stream].split(":", 1)[1], marbles

    # The input has ended: another value, completion or error is refused, clearly.
    status = curl(f"curl -s -o /dev/null -w '%{{http_code}}' -d german {inputs}/query")
    assert status == "409"
    error = json.loads(curl(f"curl -s -X POST '{inputs}/query?event=error'"))["error"]
    assert error["code"] == "input_ended"


def test_failing_an_input_fails_its_streams_with_the_message(playground):
    session = playground.new_session("login")
    watcher = playground.watch(f"/api/sessions/{session}/events")
    watcher.wait_for(has("usernameValid", False))
    status, body = playground.json("POST", f"/api/sessions/{session}/inputs/username?event=error", "keyboard unplugged")
    assert (status, body) == (202, {"accepted": True})
    watcher.wait_for(lambda events: sum(e["json"]["kind"] == "error" for e in events) >= 3)
    failed = [e["json"] for e in watcher.events if e["json"]["kind"] == "error"]
    assert [e["stream"] for e in failed] == ["input:username", "usernameValid", "signInEnabled"]
    assert failed[0]["value"] == failed[1]["value"] == {"code": "input_failed", "message": "keyboard unplugged"}
    marbles = playground.get(f"/api/sessions/{session}/marbles")[2].decode()
    assert "#" in next(line for line in marbles.splitlines() if line.startswith("usernameValid:"))
    # The other field's validation was read by signInEnabled alone: combineLatest's error disposed
    # its subscription to it, as in RAC, so it stops (the input itself still takes values).
    watcher.wait_for(lambda events: any(e["event"] == "passwordValid" and e["json"]["kind"] == "disposed" for e in events))
    playground.send(session, "password", "secret")
    watcher.wait_for(lambda events: any(e["event"] == "input:password" for e in events))
    assert not any(e["event"] == "passwordValid" and e["json"].get("value") is True for e in watcher.events)
    watcher.close()


def test_input_event_errors(playground):
    session = playground.new_session("search")
    inputs = f"/api/sessions/{session}/inputs/"
    cases = [
        (inputs + "query?event=finished", "", 400, "invalid_value"),
        (inputs + "query?event=error", '{"not": "a message"}', 400, "invalid_value"),
        (inputs + "query?event=error", "x" * 1001, 400, "invalid_value"),
        (inputs + "nope?event=completed", "", 404, "unknown_input"),
        (inputs + "advance?event=completed", "", 400, "invalid_value"),
    ]
    for path, body, status, code in cases:
        headers = {"Content-Type": "application/json"} if body.startswith("{") else {}
        got_status, got = playground.json("POST", path, body, headers)
        assert (got_status, got["error"]["code"]) == (status, code), (path, got)
        assert got["error"]["message"]
    # None of the refused requests ended the input.
    playground.send(session, "query", "still here")
