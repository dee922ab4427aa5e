"""The three scenarios and the session API end to end: real server, real time (short intervals)."""
import asyncio
import json
import os
import re
import resource
import socket
import subprocess
import time


def has(stream, value):
    """A predicate: the stream has sent `value`."""
    return lambda events: any(e.get("event") == stream and e["json"].get("value") == value for e in events)


def test_login_flow(playground):
    session = playground.new_session("login")
    watcher = playground.watch(f"/api/sessions/{session}/events")
    watcher.wait_for(lambda events: len(events) >= 4)  # the snapshot of the state streams
    playground.send(session, "submit")
    watcher.wait_for(lambda events: any(e.get("event") == "errors" for e in events))
    for value in ("u", "us", "use", "user"):
        playground.send(session, "username", value)
    playground.send(session, "password", "password")
    watcher.wait_for(has("signInEnabled", True))
    playground.send(session, "submit")
    watcher.wait_for(has("signInResult", True))
    watcher.wait_for(lambda events: watcher.values("signingIn")[-1] is False)
    assert watcher.values("usernameValid") == [False, False, False, False, True]
    assert watcher.values("signingIn") == [False, True, False]
    error = next(e["json"]["value"] for e in watcher.events if e["event"] == "errors" and e["json"]["kind"] == "next")
    assert error["code"] == "not_enabled"
    ids = [int(e["id"]) for e in watcher.events]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    watcher.close()


def test_search_flow_throttles_switches_and_recovers(playground):
    session = playground.new_session("search")
    watcher = playground.watch(f"/api/sessions/{session}/events")
    for text in ("g", "ge", "ger", "germ", "germa"):
        playground.send(session, "query", text)
        time.sleep(0.02)  # typing speed: 20 ms per keystroke, well inside the 150 ms throttle
    watcher.wait_for(lambda events: watcher.values("results"))
    assert watcher.values("throttled") == ["germa"], "one throttled value: the last"
    assert watcher.values("searching") == [True, False]
    assert any("German" in name for name in watcher.values("results")[0])

    playground.send(session, "query", "swedish")
    watcher.wait_for(lambda events: watcher.values("searching").count(True) == 2)
    playground.send(session, "query", "danish")  # supersedes the search in flight
    watcher.wait_for(has("cancelled", "swedish"))
    watcher.wait_for(lambda events: len(watcher.values("results")) == 2)

    playground.send(session, "query", "xyz!fail")
    watcher.wait_for(lambda events: watcher.values("errors"))
    playground.send(session, "query", "english")
    watcher.wait_for(lambda events: len(watcher.values("results")) == 3)
    assert "English" in watcher.values("results")[-1]
    watcher.close()


def test_command_failure_reaches_a_watcher_that_connected_after_it_started(playground):
    session = playground.new_session("command")
    playground.send(session, "email", "me@fail.example")
    playground.send(session, "execute")
    watcher = playground.watch(f"/api/sessions/{session}/events")
    watcher.wait_for(lambda events: watcher.values("errors"))
    assert watcher.values("errors")[0]["code"] == "subscribe_failed"
    watcher.wait_for(has("executing", False))
    watcher.close()


def test_command_concurrency_switch(playground):
    session = playground.new_session("command")
    watcher = playground.watch(f"/api/sessions/{session}/events")
    playground.send(session, "allowsConcurrentExecution", "true")
    playground.send(session, "email", "me@example.com")
    playground.send(session, "execute")
    playground.send(session, "execute")
    watcher.wait_for(lambda events: watcher.values("executing") == [False, True, False])
    assert watcher.values("errors") == [], "the second execute was not refused"
    # executionValues switches to the latest execution, so the first one's value is dropped.
    assert watcher.values("executionValues") == [{"subscribed": "me@example.com"}]
    assert False not in watcher.values("enabled")[1:], "enabled stays on while executing concurrently"
    watcher.close()


def test_curl_shortcut_announces_the_session_first(playground):
    watcher = playground.watch("/api/scenarios/search/events")
    watcher.wait_for(lambda events: events and events[0].get("event") == "session")
    announcement = watcher.events[0]
    assert "id" not in announcement
    info = announcement["json"]
    assert info["scenario"] == "search" and info["inputs"] == f"/api/sessions/{info['session']}/inputs/"
    status, body = playground.json("POST", info["inputs"] + "query", "spanish")
    assert status == 202
    watcher.wait_for(has("throttled", "spanish"))
    watcher.close()
    status, body = playground.json("GET", f"/api/sessions/{info['session']}")
    assert status == 200, "the session outlives the stream until it expires"


def test_head_of_the_curl_shortcut_creates_nothing(make_playground):
    server = make_playground("--max-sessions", "1")
    status, headers, body = server.request("HEAD", "/api/scenarios/login/events")
    assert status == 200 and headers["Content-Type"] == "text/event-stream" and body == b""
    assert server.json("POST", "/api/scenarios/login/sessions")[0] == 201, "HEAD did not use up the only session"
    assert server.json("POST", "/api/scenarios/login/sessions")[1]["error"]["code"] == "too_many_sessions"


def test_two_watchers_see_the_same_events(playground):
    session = playground.new_session("login")
    first = playground.watch(f"/api/sessions/{session}/events")
    second = playground.watch(f"/api/sessions/{session}/events")
    for text in ("a", "ab", "abc", "abcd"):
        playground.send(session, "username", text)
    for watcher in (first, second):
        watcher.wait_for(has("usernameValid", True))
    # Values and ends: a watcher that connected before the session started also saw its
    # subscriptions begin, which a snapshot leaves out.
    as_seen = lambda watcher: [(e["id"], e["event"], e["data"]) for e in watcher.events
                               if e["json"]["kind"] in ("next", "error", "completed")]
    assert as_seen(first) == as_seen(second)
    status, info = playground.json("GET", f"/api/sessions/{session}")
    assert info["watchers"] == 2


def test_fresh_connect_gets_the_latest_of_each_state_stream_with_original_ids(playground):
    session = playground.new_session("login")
    for text in ("a", "ab", "abc", "abcd"):
        playground.send(session, "username", text)
    live = playground.watch(f"/api/sessions/{session}/events")
    live.wait_for(has("usernameValid", True))
    late = playground.watch(f"/api/sessions/{session}/events")
    late.wait_for(lambda events: len(events) >= 4)
    snapshot = late.events[:4]
    ids = [int(e["id"]) for e in snapshot]
    assert ids == sorted(ids)
    assert {e["event"] for e in snapshot} == {"usernameValid", "passwordValid", "signInEnabled", "signingIn"}
    latest_valid = next(e for e in snapshot if e["event"] == "usernameValid")
    assert latest_valid["json"]["value"] is True
    assert latest_valid["id"] == [e for e in live.events if e["event"] == "usernameValid"][-1]["id"], "original id"


def test_reconnect_with_last_event_id_loses_no_event(playground):
    session = playground.new_session("search")
    steady = playground.watch(f"/api/sessions/{session}/events")
    flaky = playground.watch(f"/api/sessions/{session}/events")
    playground.send(session, "query", "french")
    flaky.wait_for(has("validQuery", "french"))
    last_seen = flaky.events[-1]["id"]
    flaky.close()
    for text in ("frisian", "finnish", "fijian"):  # sent while disconnected
        playground.send(session, "query", text)
    steady.wait_for(has("validQuery", "fijian"))
    resumed = playground.watch(f"/api/sessions/{session}/events", last_event_id=last_seen)
    resumed.wait_for(has("validQuery", "fijian"))
    after = [e["id"] for e in steady.events if int(e["id"]) > int(last_seen)]
    got = [e["id"] for e in resumed.events]
    assert got[:len(after)] == after, "every event after Last-Event-ID, in order, none twice"


def test_reset_when_resumed_events_are_gone(make_playground):
    server = make_playground("--event-buffer", "16")
    session = server.new_session("login")
    watcher = server.watch(f"/api/sessions/{session}/events")
    for index in range(20):
        server.send(session, "username", "x" * index)
    watcher.wait_for(lambda events: len(events) >= 40)
    resumed = server.watch(f"/api/sessions/{session}/events", last_event_id="1")
    resumed.wait_for(lambda events: len(events) >= 5)
    assert resumed.events[0]["event"] == "reset" and "id" not in resumed.events[0]
    assert {e["event"] for e in resumed.events[1:5]} == {"usernameValid", "passwordValid", "signInEnabled", "signingIn"}


def test_a_catch_up_larger_than_the_stream_may_queue_starts_at_the_newest(make_playground):
    """The events after `since=0` are more than `--sse-queue-bytes` may hold: queued at once they
    would close the stream as too slow before its client read one, and the client would ask again
    from 0 for ever. It gets `reset`, the state streams' latest values, and the newest events."""
    server = make_playground("--sse-queue-bytes", "65536", "--max-value-bytes", "16384", "--event-buffer", "5000", "--inputs-per-second", "1000")
    session = server.new_session("login")
    watcher = server.watch(f"/api/sessions/{session}/events")
    for index in range(100):
        server.send(session, "username", f"{index:03}" + "x" * 500)
    watcher.wait_for(has("input:username", "099" + "x" * 500))  # every input in
    watcher.close()
    caught_up = server.watch(f"/api/sessions/{session}/events?since=0")
    events = caught_up.wait_for(has("input:username", "099" + "x" * 500))
    assert events[0]["event"] == "reset" and "more than this stream may queue" in events[0]["data"], events[0]
    ids = [int(e["id"]) for e in events[1:]]
    assert ids == sorted(ids) and len(set(ids)) == len(ids), "in order, none twice"
    usernames = [e for e in events if e.get("event") == "input:username"]
    assert 0 < len(usernames) < 100 and sum(len(e["data"]) for e in events) <= 65536 * 3 // 4
    server.send(session, "password", "secret")  # still connected: a live event arrives
    caught_up.wait_for(has("input:password", "secret"))


def test_delete_ends_the_streams(playground):
    session = playground.new_session("ticker")
    watcher = playground.watch(f"/api/sessions/{session}/events")
    watcher.wait_for(lambda events: len(events) >= 3)
    assert playground.request("DELETE", f"/api/sessions/{session}")[0] == 204
    try:
        watcher.wait_for(lambda events: False, timeout=3)
    except EOFError:
        pass  # the stream ended, as it should
    else:
        raise AssertionError("the stream stayed open after DELETE")
    assert playground.json("GET", f"/api/sessions/{session}")[1]["error"]["code"] == "unknown_session"


def test_error_cases_over_http(playground):
    session = playground.new_session("login")
    inputs = f"/api/sessions/{session}/inputs/"
    cases = [
        ("POST", "/api/scenarios/nope/sessions", None, {}, 404, "unknown_scenario"),
        ("GET", "/api/sessions/0123/events", None, {}, 404, "unknown_session"),
        ("POST", inputs + "nope", "x", {}, 404, "unknown_input"),
        ("GET", inputs + "username", None, {}, 405, "method_not_allowed"),
        ("POST", inputs + "username", "x", {"Content-Type": "text/html"}, 415, "unsupported_media_type"),
        ("POST", inputs + "username", "{", {"Content-Type": "application/json"}, 400, "invalid_json"),
        ("POST", inputs + "username", b"\xff", {}, 400, "invalid_utf8"),
        ("POST", inputs + "username", "42", {"Content-Type": "application/json"}, 400, "invalid_value"),
    ]
    for method, path, body, headers, status, code in cases:
        got_status, got = playground.json(method, path, body, headers)
        assert (got_status, got["error"]["code"]) == (status, code), (method, path, got)
        assert got["error"]["message"]
    # A 1 MiB body is refused from its Content-Length, before it is read; curl (which waits for the
    # answer before sending a large body) sees the 413. Precedence: an unknown session is 404 first.
    for path, status, code in [(inputs + "username", 413, "payload_too_large"),
                               ("/api/sessions/0123/inputs/username", 404, "unknown_session")]:
        result = subprocess.run(["curl", "-s", "-w", "\\n%{http_code}", "--data-binary", "@-", playground.url + path],
                                input=b"x" * (1 << 20), capture_output=True, timeout=10)
        body, _, got_status = result.stdout.decode().rpartition("\n")
        assert (int(got_status), json.loads(body)["error"]["code"]) == (status, code)


def test_oversized_chunked_input_is_413(playground):
    session = playground.new_session("login")
    with socket.create_connection(("127.0.0.1", playground.port), timeout=5) as connection:
        connection.sendall(f"POST /api/sessions/{session}/inputs/username HTTP/1.1\r\nHost: x\r\n"
                           "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n".encode())
        chunk = b"x" * 8192
        for _ in range(16):
            connection.sendall(b"2000\r\n" + chunk + b"\r\n")
        connection.sendall(b"0\r\n\r\n")
        response = b""
        while data := connection.recv(65536):
            response += data
    assert response.startswith(b"HTTP/1.1 413"), response[:200]


def test_virtual_clock_search_session_driven_by_curl(make_playground):
    """Five queries, then advance 400 shows no throttled value; advance 100 more shows exactly one
    (the default 0.5 s throttle: a virtual clock needs no shortened timings)."""
    playground = make_playground(fast=False)
    base = playground.url
    run = lambda command: subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=10).stdout
    created = json.loads(run(f"curl -s -X POST '{base}/api/scenarios/search/sessions?clock=virtual'"))
    session = created["session"]
    inputs = f"{base}/api/sessions/{session}/inputs"
    for query in ("s", "sw", "swe", "swed", "swedish"):
        assert json.loads(run(f"curl -s -d {query} {inputs}/query")) == {"accepted": True}
    assert json.loads(run(f"curl -s -d 400 {inputs}/advance")) == {"accepted": True}
    # Inputs are applied in order on the session's thread; the watcher replays from the first event.
    watcher = playground.watch(f"/api/sessions/{session}/events", last_event_id="0")
    watcher.wait_for(has("validQuery", "swedish"))
    assert watcher.values("throttled") == []
    assert json.loads(run(f"curl -s -d 100 {inputs}/advance")) == {"accepted": True}
    watcher.wait_for(has("throttled", "swedish"))
    throttled = [e for e in watcher.events if e["event"] == "throttled" and e["json"]["kind"] == "next"]
    assert len(throttled) == 1 and throttled[0]["json"]["t"] == 500.0, "virtual milliseconds"
    assert json.loads(run(f"curl -s -d 1000 {inputs}/advance")) == {"accepted": True}
    watcher.wait_for(lambda events: watcher.values("results"))
    assert watcher.values("searching") == [True, False]
    watcher.close()


def test_a_huge_or_malformed_last_event_id_resets_and_the_server_lives_on(playground):
    """`Last-Event-ID: 9223372036854775807` once trapped on `id + 1` and ended every session."""
    session = playground.new_session("ticker")
    for value in ["9223372036854775807", "-9223372036854775808", "99999999999999999999", "0x10", "1e3", "abc"]:
        for path in [f"/api/sessions/{session}/events", "/api/scenarios/ticker/events"]:
            watcher = playground.watch(path, last_event_id=value)
            events = watcher.wait_for(lambda events: any(e.get("event") == "reset" for e in events))
            assert any(e.get("event") == "reset" for e in events)
            watcher.close()
    status, body = playground.get("/healthz")[:2]
    assert status == 200
    assert playground.json("GET", f"/api/sessions/{session}")[0] == 200


def test_since_replays_like_last_event_id_for_a_client_that_cannot_send_the_header(playground):
    """The page's EventSource opens `events?since=0` and gets the session from its first event
    (every subscription), as `Last-Event-ID: 0` does; a `Last-Event-ID` sent on a reconnect wins;
    a `since` that is not an event number is 400, and the server lives on."""
    session = playground.new_session("search")
    path = f"/api/sessions/{session}/events"
    header = playground.watch(path, last_event_id="0")
    header.wait_for(lambda events: len([e for e in events if "json" in e]) >= 6)  # the stages' subscriptions
    header.close()
    query = playground.watch(f"{path}?since=0")
    query.wait_for(lambda events: len(events) >= len(header.events))
    first = lambda events: [e["json"]["seq"] for e in events if "json" in e][:5]
    assert first(query.events) == first(header.events) and first(query.events)[0] == 1
    query.close()
    last = first(header.events)[-1]
    both = playground.watch(f"{path}?since=0", last_event_id=str(last))
    both.wait_for(lambda events: events)
    assert min(e["json"]["seq"] for e in both.events if "json" in e) > last, "the header wins"
    both.close()
    for value in ["-1", "abc", "1e3", "99999999999999999999", ""]:
        status, body = playground.json("GET", f"{path}?since={value}")
        assert status == 400 and body["error"]["code"] == "invalid_value", (value, body)
    assert playground.json("GET", f"/api/sessions/{session}")[0] == 200


def test_the_connections_of_vanished_watchers_are_freed_without_another_request(playground):
    """libmicrohttpd frees a closed connection in a later turn of its loop, and with nothing else
    to do it used to sleep until the next request (or the 30 s connection timeout): the sockets and
    memory of a crowd of watchers that left stayed until someone called. Not every time, so three
    crowds of 2,000, each opened 500 at a time and leaving at once while a monitor polls /metrics
    (as in the resilience benchmark). Counted in /proc, not over HTTP: a request wakes the loop."""
    session = playground.new_session("search")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4096)), hard))
    path = f"/api/sessions/{session}/events"

    def open_descriptors():
        return len(os.listdir(f"/proc/{playground.process.pid}/fd"))

    async def open_watcher():
        reader, writer = await asyncio.open_connection("127.0.0.1", playground.port)
        writer.write(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
        assert head.startswith(b"HTTP/1.1 200")
        return writer

    async def open_streams():
        reader, writer = await asyncio.open_connection("127.0.0.1", playground.port)
        writer.write(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        metrics = (await asyncio.wait_for(reader.read(), 5)).decode()
        writer.close()
        return int(re.search(r"^microhttp_open_sse_streams (\d+)(?:\.0)?\r?$", metrics, re.M).group(1))

    async def crowd():
        watchers = []
        for _ in range(4):
            watchers += await asyncio.gather(*[open_watcher() for _ in range(500)])
        await asyncio.sleep(0.5)  # idle, suspended streams
        for writer in watchers:
            writer.close()
        deadline = time.monotonic() + 3
        while await open_streams() > 0 and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        # From here on, no request until the descriptors are counted.
        deadline = time.monotonic() + 3
        while open_descriptors() > baseline + 2 and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        return open_descriptors()

    baseline = open_descriptors()
    for _ in range(3):
        assert asyncio.run(crowd()) <= baseline + 2
