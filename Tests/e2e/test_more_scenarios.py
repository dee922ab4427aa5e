"""The binding, multicast and schedulers scenarios end to end over HTTP (real time, short intervals),
and the scenarios' programs in the catalogue."""
import json
import re
import time

from test_sessions import has


def test_binding_two_way_over_http(playground):
    session = playground.new_session("binding")
    watcher = playground.watch(f"/api/sessions/{session}/events")
    # The snapshot, or (when the watcher is first) the binding itself: both fields take the name.
    for stream, value in (("fieldA", "Ada"), ("fieldB", "Ada"), ("name", "Ada"), ("label", "Hello, Ada!")):
        watcher.wait_for(has(stream, value))
    start = len(watcher.events)
    after = lambda stream: [e["json"]["value"] for e in watcher.events[start:] if e["event"] == stream]
    for text in ("G", "Gr", "Gra"):
        playground.send(session, "fieldA", text)
    watcher.wait_for(has("label", "Hello, Gra!"))
    watcher.wait_for(has("fieldB", "Gra"))
    assert after("fieldA") == ["G", "Gr", "Gra"], "each keystroke once: nothing echoes back into A"
    assert after("fieldB") == ["G", "Gr", "Gra"]
    playground.send(session, "fieldB", "Linus")
    watcher.wait_for(has("fieldA", "Linus"))
    assert after("fieldB")[-1] == "Linus" and after("fieldB").count("Linus") == 1
    watcher.close()


def test_multicast_counts_requests_per_mode(playground):
    """Service latency is 200 ms here (FAST). B subscribes after A's response: what each mode gives
    a late subscriber, and how many requests were made."""
    expected = {"cold": (2, ["subscribed", "next: response 2", "completed"]),
                "publish": (1, ["subscribed", "completed"]),
                "replay": (1, ["subscribed", "next: response 1", "completed"])}
    for mode, (requests, late) in expected.items():
        session = playground.new_session("multicast")
        watcher = playground.watch(f"/api/sessions/{session}/events")
        playground.send(session, "mode", mode)
        playground.send(session, "subscribeA")
        watcher.wait_for(has("subscriberA", "completed"))
        playground.send(session, "subscribeB")  # late: after A's response
        watcher.wait_for(has("subscriberB", "completed"))
        assert watcher.values("subscriberA") == ["subscribed", "next: response 1", "completed"], mode
        assert watcher.values("subscriberB") == late, mode
        assert watcher.values("requestsMade")[-1] == requests, mode
        if mode != "cold":
            assert watcher.values("connection")[-2:] == ["connected", "disposed"], mode
        watcher.close()


def test_schedulers_label_threads_and_show_the_run_loop_lesson(playground):
    session = playground.new_session("schedulers")
    watcher = playground.watch(f"/api/sessions/{session}/events")
    playground.send(session, "tap")
    for stream in ("deliverOnQueue", "deliverOnRunLoop", "subscribeOnQueue"):
        watcher.wait_for(lambda events, s=stream: watcher.values(s))
    threads = {s: watcher.values(s)[0]["thread"] for s in ("source", "deliverOnQueue", "deliverOnRunLoop", "subscribeOnQueue")}
    assert threads == {"source": "the session's thread",
                       "deliverOnQueue": "a Dispatch thread of queue playground.schedulers.queue",
                       "deliverOnRunLoop": "the run-loop thread playground.schedulers.run-loop",
                       "subscribeOnQueue": "a Dispatch thread of queue playground.schedulers.queue"}
    # Every event also says, by name, which thread delivered it.
    named = {s: {e["json"]["thread"] for e in watcher.events if e["event"] == s and e["json"]["kind"] == "next"}
             for s in threads}
    assert named == {"source": {"session"}, "deliverOnQueue": {"queue"}, "deliverOnRunLoop": {"run-loop"},
                     "subscribeOnQueue": {"queue"}}
    playground.send(session, "scheduleOnRunLoop")
    playground.send(session, "scheduleOnBareThread")
    watcher.wait_for(lambda events: len(watcher.values("keptAliveRunLoop")) == 2)
    assert watcher.values("keptAliveRunLoop")[1] == "ran on the run-loop thread playground.schedulers.run-loop"
    watcher.wait_for(lambda events: len(watcher.values("bareThread")) == 2, timeout=5)
    assert watcher.values("bareThread")[1].startswith("still not run after 1000 ms")
    watcher.close()


def test_each_catalogue_entry_carries_its_pipelines_source(playground):
    status, body = playground.json("GET", "/api/scenarios")
    assert status == 200
    for scenario in body["scenarios"]:
        source = scenario["source"]
        assert source["path"].startswith("Sources/Scenarios/") and source["path"].endswith(".swift")
        for stream in scenario["streams"]:
            # `stream("name", …)`, the name maybe on the next line (as swift-format breaks a long call)
            # `stages.stream("name", …)` (read by later stages) or `stages.watch("name", …)`
            assert re.search(rf'(stream|watch)\(\s*"{stream["name"]}"', source["swift"]), (scenario["id"], stream["name"])


def test_the_programs_in_the_catalogue_run_as_sessions(playground):
    """The ticker, search, login and command entries carry their scenario as a program, ready to
    post: each makes a session whose streams include the scenario's (under the program's names)."""
    status, body = playground.json("GET", "/api/scenarios")
    programs = {scenario["id"]: scenario["pipeline"] for scenario in body["scenarios"] if "pipeline" in scenario}
    assert sorted(programs) == ["command", "login", "search", "ticker"]
    for scenario_id, program in programs.items():
        status, headers, raw = playground.request("POST", "/api/pipelines", body=program.encode(),
                                                  headers={"Content-Type": "text/plain"})
        session = json.loads(raw)
        assert status == 201, (scenario_id, session)
        assert session["scenario"] == "pipeline" and session["pipeline"]["diagnostics"] == []
        names = {stream["name"] for stream in session["pipeline"]["streams"]}
        assert {"ticker": "count", "search": "results", "login": "signInResult", "command": "executionValues"}[scenario_id] in names
        playground.request("DELETE", f"/api/sessions/{session['session']}")


def hostile_corpus():
    """The pipeline benchmark's hostile corpus (Benchmarks/load/pipelines.py) and its helper that
    declares an oversized body without sending it."""
    import sys
    from conftest import ROOT
    sys.path.insert(0, str(ROOT / "Benchmarks" / "load"))
    from pipelines import corpus, oversized
    return corpus, oversized


def search_still_answers(playground, session):
    """The search session made before an attack still answers its inputs; the server lives."""
    watcher = playground.watch(f"/api/sessions/{session}/events")
    playground.send(session, "query", "swift")
    watcher.wait_for(lambda events: "swift" in watcher.values("validQuery"), timeout=5)
    watcher.close()
    assert playground.process.poll() is None


def test_the_hostile_corpus_gets_clean_answers_and_the_server_carries_on(make_playground):
    """Every program of the benchmark's hostile corpus (spinning, exploding, huge, deep, invalid)
    is answered 201, a clean 400 or a 413; the server neither traps nor hangs, and a scenario's
    session made before them still answers its inputs."""
    corpus, oversized = hostile_corpus()

    playground = make_playground("--program-runs-per-second", "1000")
    session = playground.new_session("search")
    for program in corpus():
        if len(program) > 64 * 1024:
            # Declared, not sent: answered from the head (a client still writing could be reset first).
            assert oversized(playground.port, len(program)) == 413
            continue
        status, _, raw = playground.request("POST", "/api/pipelines", body=program,
                                            headers={"Content-Type": "text/plain"})
        assert status in (201, 400, 413), (status, program[:60], raw[:200])
        if status != 201:
            assert json.loads(raw)["error"]["code"] in ("pipeline_invalid", "invalid_utf8", "payload_too_large"), raw[:200]
    search_still_answers(playground, session)


def test_the_hostile_corpus_as_marble_programs_gets_clean_answers_in_bounded_time(make_playground):
    """The same corpus posted to POST /api/marbles (run on a virtual clock to 60 s, without a
    session): each is drawn (200, perhaps truncated), or a clean 400 or 413, within its step
    budget; a scenario's session made before them still answers."""
    import time
    corpus, _ = hostile_corpus()

    playground = make_playground("--marble-runs-per-second", "1000")
    session = playground.new_session("search")
    slowest = 0.0
    for program in corpus():
        if len(program) > 64 * 1024:
            continue  # refused from the head, as above
        start = time.monotonic()
        status, _, raw = playground.request("POST", "/api/marbles", body=program, headers={"Content-Type": "text/plain"})
        slowest = max(slowest, time.monotonic() - start)
        assert status in (200, 400, 413), (status, program[:60], raw[:200])
        answer = json.loads(raw)
        if status == 200:
            assert set(answer["streams"]) == set(answer["order"]) and isinstance(answer["truncated"], bool)
        else:
            assert answer["error"]["code"] in ("pipeline_invalid", "invalid_utf8", "payload_too_large"), raw[:200]
    assert slowest < 5, f"one marble program took {slowest:.1f} s"
    search_still_answers(playground, session)


def test_the_search_program_and_the_search_scenario_draw_the_same_marbles(make_playground):
    """Over HTTP, on virtual clocks: the catalogue's search program and the built-in scenario, fed
    the same typing and clock steps, draw the same marbles for every stream the program writes (at
    the default timings, which the program states: a 0.5 s throttle, a 1 s service)."""
    playground = make_playground(fast=False)
    status, entry = playground.json("GET", "/api/scenarios/search")
    status, scenario = playground.json("POST", "/api/scenarios/search/sessions?clock=virtual")
    assert status == 201
    status, _, raw = playground.request("POST", "/api/pipelines?clock=virtual", body=entry["pipeline"].encode(),
                                        headers={"Content-Type": "text/plain"})
    assert status == 201, raw
    program = json.loads(raw)
    sessions = [scenario["session"], program["session"]]
    # A scenario's text field starts empty; a program's input has no value until one is posted.
    playground.send(program["session"], "query", "")
    for step in [("sw", 0), ("swe", 100), ("swed", 100), ("fre", 800), ("fren", 100), ("x!fail", 1300), (None, 3000)]:
        text, advance = step
        for session in sessions:
            if advance:
                playground.send(session, "advance", str(advance))
            if text is not None:
                playground.send(session, "query", text)
    for session in sessions:  # the end of the typing travels down, so the drawings end with `|`
        assert playground.request("POST", f"/api/sessions/{session}/inputs/query?event=completed")[0] == 202
        playground.send(session, "advance", "2000")
    def marbles(session):
        """Each stream's drawing, with its legend of values (the indented lines under it)."""
        status, _, body = playground.request("GET", f"/api/sessions/{session}/marbles")
        assert status == 200
        drawings, name = {}, None
        for line in body.decode().splitlines()[1:]:
            if line.startswith("  subscriptions: "):
                continue  # a program's streams are cold and record subscriptions; a scenario's share
            if line.startswith("  ") and name:
                drawings[name] += "\n" + line
            elif ": " in line or line.endswith(":"):
                name, _, drawing = line.partition(":")
                drawings[name] = drawing.strip()
        return drawings

    # Inputs are queued on each session's thread: wait (bounded) until the last step has run.
    deadline = time.monotonic() + 5
    while True:
        drawn = [marbles(session) for session in sessions]
        if all(lines.get("results", "").split("\n")[0].endswith("|") for lines in drawn) or time.monotonic() > deadline:
            break
        time.sleep(0.05)  # polling the sessions' threads, bounded by the deadline
    for stream in ["validQuery", "throttled", "results"]:
        line = drawn[0][stream].split("\n")[0]
        assert any(mark.isalpha() for mark in line) and line.endswith("|"), (stream, drawn[0])
        assert drawn[1][stream] == drawn[0][stream], stream
