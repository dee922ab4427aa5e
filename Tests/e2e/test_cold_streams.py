"""A program's named streams are cold, as RAC's signals are, end to end: two readers of
`r = request()` make two requests, sharing makes one, and the session says how many
subscriptions each stream has had and has live."""
import json
import time


def run(playground, program, clock="real"):
    status, _, raw = playground.request("POST", f"/api/pipelines?clock={clock}", body=program.encode(),
                                        headers={"Content-Type": "text/plain"})
    body = json.loads(raw)
    assert status == 201, body
    return body


def values(watcher, stream):
    return [e["json"]["value"] for e in watcher.events if e["event"] == stream and e["json"]["kind"] == "next"]


def started(playground, events_path, subscriptions):
    """Waits until each stream has begun as many subscriptions as `subscriptions` says: a session's
    pipeline starts on its own thread, after the answer that made it."""
    watcher = playground.watch(events_path, last_event_id="0")
    begun = lambda events, stream: sum(e["event"] == stream and e["json"]["kind"] == "subscribed" for e in events)
    watcher.wait_for(lambda events: all(begun(events, s) >= n for s, n in subscriptions.items()))
    watcher.close()


def test_two_readers_make_two_requests_and_sharing_makes_one(playground):
    """The issue's three-line program: A and B each get their own response; with replayLazily()
    they share one. The checker's warning comes with the first."""
    cold = run(playground, 'r = request()\na = r.map { "A got " + $0 }\nb = r.map { "B got " + $0 }\n')
    assert [d["message"][:25] for d in cold["pipeline"]["diagnostics"]] == ["`r` is subscribed 2 times"]
    watcher = playground.watch(cold["events"], last_event_id="0")
    watcher.wait_for(lambda events: values(watcher, "a") and values(watcher, "b"))
    assert sorted(values(watcher, "a") + values(watcher, "b")) == ["A got response 1", "B got response 2"]
    # Each subscription of r: `subscribed`, its value, and (the request never completes) no end yet.
    of_r = [e["json"] for e in watcher.events if e["event"] == "r"]
    subs = [e["sub"] for e in of_r if e["kind"] == "subscribed"]
    assert len(set(subs)) == 2
    assert sorted(e["sub"] for e in of_r if e["kind"] == "next") == sorted(subs)
    assert all("value" not in e for e in of_r if e["kind"] == "subscribed")
    status, info = playground.json("GET", f"/api/sessions/{cold['session']}")
    assert status == 200 and info["subscriptions"]["r"]["subscriptions"] == 2
    assert "r·request" not in info["subscriptions"], "r is the request itself: its subscriptions are r's"
    assert info["subscriptions"]["a"] == {"subscriptions": 1, "live": info["subscriptions"]["a"]["live"]}
    watcher.close()

    shared = run(playground, 'r = request().replayLazily()\na = r.map { "A got " + $0 }\nb = r.map { "B got " + $0 }\n')
    assert shared["pipeline"]["diagnostics"] == []
    watcher = playground.watch(shared["events"], last_event_id="0")
    watcher.wait_for(lambda events: values(watcher, "a") and values(watcher, "b"))
    assert values(watcher, "a")[0][len("A got "):] == values(watcher, "b")[0][len("B got "):], "one response, shared"
    watcher.close()
    status, info = playground.json("GET", f"/api/sessions/{shared['session']}")
    assert info["subscriptions"]["r"]["subscriptions"] == 2, "two readers subscribe to r"
    assert info["subscriptions"]["r·request"]["subscriptions"] == 1, "one upstream subscription: one request"
    for session in (cold, shared):
        playground.request("DELETE", f"/api/sessions/{session['session']}")


def test_live_subscriptions_are_counted_per_stream_and_stage(playground):
    """An interval read by two streams has two live subscriptions (two timers); each reader and
    its stage one; a scenario's stages are counted the same way."""
    created = run(playground, "t = interval(1s)\na = t.map { $0 }.filter { $0 > 0 }\nb = t.map { $0 }\n")
    started(playground, created["events"], {"t": 2, "a": 1, "b": 1, "a·map": 1})
    status, info = playground.json("GET", f"/api/sessions/{created['session']}")
    assert status == 200
    counts = info["subscriptions"]
    assert counts["t"] == {"subscriptions": 2, "live": 2}
    assert counts["a"] == counts["b"] == counts["a·map"] == {"subscriptions": 1, "live": 1}
    playground.request("DELETE", f"/api/sessions/{created['session']}")
    # A scenario's stages follow the same rule: the search's stages are read by one stream each,
    # and the four streams of its results share one search (written with publish().autoconnect()).
    scenario = playground.new_session("search")
    started(playground, f"/api/sessions/{scenario}/events", {"validQuery": 1, "throttled": 1, "results": 1})
    status, info = playground.json("GET", f"/api/sessions/{scenario}")
    assert status == 200
    assert info["subscriptions"]["validQuery"] == info["subscriptions"]["throttled"] == {"subscriptions": 1, "live": 1}
    assert info["subscriptions"]["results"] == {"subscriptions": 1, "live": 1}


def test_take_one_disposes_what_it_reads_right_after_the_first_value(playground):
    """On a virtual clock, so that "right after" is the same instant."""
    created = run(playground, "r = request()\nfirst = r.take(1)\n", clock="virtual")
    watcher = playground.watch(created["events"], last_event_id="0")
    playground.send(created["session"], "advance", "1000")
    watcher.wait_for(lambda events: any(e["event"] == "r" and e["json"]["kind"] == "disposed" for e in events))
    of_r = [e["json"] for e in watcher.events if e["event"] == "r"]
    assert [e["kind"] for e in of_r] == ["subscribed", "next", "disposed"]
    assert len({e["sub"] for e in of_r}) == 1
    assert of_r[2]["t"] == of_r[1]["t"], "disposed when the value came"
    first = [e["json"]["kind"] for e in watcher.events if e["event"] == "first"]
    assert first == ["subscribed", "next", "completed", "disposed"]
    watcher.close()
    playground.request("DELETE", f"/api/sessions/{created['session']}")


def test_a_newer_query_disposes_the_older_search_before_its_answer(make_playground):
    """The search program on a virtual clock (0.5 s throttle, 1 s search): "danish" arrives while
    "swedish" is being searched; the swedish search is `disposed` with no answer, the danish one
    answers. Each search is a subscription of `results·search`."""
    playground = make_playground(fast=False)
    program = ("input query: text\nvalid = query.filter { $0.count > 2 }\nthrottled = valid.throttle(0.5s)\n"
               "results = throttled.flatMap(.latest) { search($0).catch { _ in empty } }\n")
    created = run(playground, program, clock="virtual")
    session = created["session"]
    watcher = playground.watch(created["events"], last_event_id="0")
    playground.send(session, "query", "swedish")
    playground.send(session, "advance", "500")
    playground.send(session, "query", "danish")
    playground.send(session, "advance", "1500")
    watcher.wait_for(lambda events: any(e["event"] == "results·search" and e["json"]["kind"] == "completed" for e in events))
    searches = [e["json"] for e in watcher.events if e["event"] == "results·search"]
    subs = sorted({e["sub"] for e in searches})
    assert len(subs) == 2
    older = [(e["kind"], e["t"]) for e in searches if e["sub"] == subs[0]]
    assert older == [("subscribed", 500.0), ("disposed", 1000.0)], "cancelled before its answer at 1500"
    newer = [e["kind"] for e in searches if e["sub"] == subs[1]]
    assert newer[:2] == ["subscribed", "completed"], "answered (its value is the results')"
    assert "Danish" in str(values(watcher, "results"))
    watcher.close()
    playground.request("DELETE", f"/api/sessions/{session}")


def test_marbles_answer_each_streams_subscriptions(playground):
    """POST /api/marbles draws each stream's subscriptions in RxJS's subscription marbles:
    take(2) disposes the source at its second value; a stream read twice has two."""
    status, answer = playground.json("POST", "/api/marbles", 'src = marbles("-a-b-c-|")\nfirst = src.take(2)\n',
                                     {"Content-Type": "text/plain"})
    assert status == 200, answer
    assert answer["streams"]["first"]["marbles"] == "-a-(b|)"
    assert answer["streams"]["src"]["subscriptions"] == ["^--!"]
    assert answer["streams"]["first"]["subscriptions"] == ["^--!"]
    status, answer = playground.json("POST", "/api/marbles", 'src = marbles("-a|")\nx = src\ny = src\n',
                                     {"Content-Type": "text/plain"})
    assert status == 200 and answer["streams"]["src"]["subscriptions"] == ["^-!", "^-!"]


def test_the_session_marbles_view_lists_a_programs_subscriptions(playground):
    created = run(playground, 'src = marbles("-a-b-c-|")\nfirst = src.take(2)\n', clock="virtual")
    playground.send(created["session"], "advance", "1000")
    # The step is queued on the session's thread: the clock reads 1000 once all of it has run.
    deadline = time.monotonic() + 5
    while playground.json("GET", f"/api/sessions/{created['session']}")[1]["virtualTime"] < 1000:
        assert time.monotonic() < deadline, "the advance never ran"
        time.sleep(0.02)  # polling the session's thread, bounded by the deadline
    status, _, body = playground.request("GET", f"/api/sessions/{created['session']}/marbles")
    assert status == 200
    lines = body.decode().splitlines()
    src = lines.index(next(line for line in lines if line.startswith("src: ")))
    assert "  subscriptions: ^--!" in lines[src + 1:src + 6], lines
    playground.request("DELETE", f"/api/sessions/{created['session']}")


def test_deliver_on_background_names_the_background_thread(playground):
    """`deliver(on: background)` moves each event to the programs' shared queue, `deliver(on: session)`
    back; every event says which. On a virtual clock the hop is named the same."""
    program = "input x: number\nthere = x.map { $0 * 2 }.deliver(on: background)\nback = there.deliver(on: session)\n"
    for clock in ("real", "virtual"):
        created = run(playground, program, clock=clock)
        assert created["pipeline"]["diagnostics"] == []
        watcher = playground.watch(created["events"], last_event_id="0")
        playground.send(created["session"], "x", "1")
        playground.send(created["session"], "x", "2")
        if clock == "virtual":
            playground.send(created["session"], "advance", "10")
        watcher.wait_for(lambda events: len(values(watcher, "back")) == 2)
        assert values(watcher, "back") == [2, 4]
        threads = {}
        for e in watcher.events:
            if e["json"]["kind"] == "next":
                threads.setdefault(e["event"], set()).add(e["json"]["thread"])
        # `there·map` is the stage before the hop: still on the session's thread.
        assert threads == {"input:x": {"session"}, "there·map": {"session"}, "there": {"background"},
                           "back": {"session"}}, clock
        watcher.close()
        playground.request("DELETE", f"/api/sessions/{created['session']}")
