"""`causes` end to end: every event names the input events at the root of what sent it."""


def has(stream, value):
    return lambda events: any(e.get("event") == stream and e["json"].get("value") == value for e in events)


def events_of(watcher, stream):
    """A stream's values and its end (not the start and end of its subscriptions)."""
    return [e["json"] for e in watcher.events
            if e.get("event") == stream and e["json"]["kind"] in ("next", "error", "completed")]


def test_search_results_and_cancellations_name_the_query_that_caused_them(make_playground):
    """On a virtual clock (the default 0.5 s throttle, 1 s service): a result's causes are the
    `input:query` event of the query it answers, across the throttle's timer and the service's
    answer; a cancellation's causes are the newer query's input event."""
    playground = make_playground(fast=False)
    status, created = playground.json("POST", "/api/scenarios/search/sessions?clock=virtual")
    assert status == 201
    session = created["session"]
    watcher = playground.watch(f"/api/sessions/{session}/events", last_event_id="0")
    for query in ("s", "sw", "swedish"):
        playground.send(session, "query", query)
    playground.send(session, "advance", "500")
    watcher.wait_for(has("throttled", "swedish"))
    playground.send(session, "query", "danish")  # while "swedish" is being searched
    playground.send(session, "advance", "500")
    watcher.wait_for(has("cancelled", "swedish"))
    playground.send(session, "advance", "1000")
    watcher.wait_for(lambda events: events_of(watcher, "results"))

    inputs = {e["value"]: e for e in events_of(watcher, "input:query")}
    assert list(inputs) == ["s", "sw", "swedish", "danish"]
    for event in inputs.values():
        assert event["causes"] == [event["seq"]], "an input event is its own root"
    for event in (e["json"] for e in watcher.events):
        assert isinstance(event["causes"], list) and all(isinstance(seq, int) for seq in event["causes"])
        assert all(seq <= event["seq"] for seq in event["causes"]), "a cause comes first"
    swedish, danish = inputs["swedish"]["seq"], inputs["danish"]["seq"]
    throttled = events_of(watcher, "throttled")
    assert [(e["value"], e["causes"]) for e in throttled] == [("swedish", [swedish]), ("danish", [danish])]
    [cancelled] = events_of(watcher, "cancelled")
    assert cancelled["value"] == "swedish" and cancelled["causes"] == [danish]
    [results] = events_of(watcher, "results")
    assert results["causes"] == [danish] and results["t"] == 2000.0
    # Events sent when the session started were caused by no input.
    first_query = inputs["s"]["seq"]
    assert all(e["json"]["causes"] == [] for e in watcher.events if int(e["id"]) < first_query)
    watcher.close()


def test_inputs_are_recorded_apart_from_streams_of_the_same_name(playground):
    """The binding scenario has an input `fieldA` and a stream `fieldA`: two rows, two names."""
    session = playground.new_session("binding")
    watcher = playground.watch(f"/api/sessions/{session}/events")
    playground.send(session, "fieldA", "hello")
    watcher.wait_for(has("input:fieldA", "hello"))
    watcher.wait_for(has("fieldA", "hello"))
    [typed] = events_of(watcher, "input:fieldA")
    assert typed["causes"] == [typed["seq"]] and typed["kind"] == "next"
    shown = [e for e in events_of(watcher, "fieldA") if e["value"] == "hello"]
    assert shown and all(e["causes"] == [typed["seq"]] for e in shown)
    watcher.close()


def test_a_timer_that_no_input_started_has_no_causes(playground):
    session = playground.new_session("ticker")
    watcher = playground.watch(f"/api/sessions/{session}/events")
    watcher.wait_for(lambda events: len(events_of(watcher, "count")) >= 2)
    assert all(e["json"]["causes"] == [] for e in watcher.events)
    watcher.close()


def test_an_input_that_completes_is_recorded_and_causes_the_completion_downstream(playground):
    session = playground.new_session("search")
    watcher = playground.watch(f"/api/sessions/{session}/events")
    status, _ = playground.json("POST", f"/api/sessions/{session}/inputs/query?event=completed", "")
    assert status == 202
    watcher.wait_for(lambda events: any(e["json"]["kind"] == "completed" and e["event"] == "validQuery" for e in events))
    [ended] = events_of(watcher, "input:query")
    assert ended["kind"] == "completed" and ended["causes"] == [ended["seq"]]
    [completed] = [e for e in events_of(watcher, "validQuery") if e["kind"] == "completed"]
    assert completed["causes"] == [ended["seq"]]
    watcher.close()
