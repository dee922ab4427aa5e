"""A session's RAC objects' changes on its event stream (issue #74, docs/API.md "Inside"): with
`?inside=1` a watcher gets every change as an `inside` frame with its line of narration, before
the event that followed it, numbered `E.N`; one `Last-Event-ID` resumes both the events and the
changes, none lost, none twice; what is streamed is what `GET …/inside` says of the same changes."""
import json
import time

import pytest

from test_inside import STEPS

SWITCH = 'a = marbles("-x---y---|", x: marbles("-1-2-3|"), y: marbles("-4-5|"))\nout = a.flatMap(.latest) { marbles($0) }.take(3)'


def switch_session(playground):
    status, created = playground.json("POST", "/api/pipelines?clock=virtual", SWITCH.encode(), {"Content-Type": "text/plain"})
    assert status == 201, created
    return created["session"]


def clock_reached(playground, session, milliseconds):
    """Waits until the session's virtual clock has done its moves (they are accepted before they run)."""
    deadline = time.monotonic() + 10
    while playground.json("GET", f"/api/sessions/{session}")[1]["virtualTime"] < milliseconds:
        assert time.monotonic() < deadline, "the clock did not get there"
        time.sleep(0.01)


def ended(stream, kind):
    return lambda events: any(e.get("event") == stream and e["json"].get("kind") == kind for e in events)


def changes(events):
    return [e for e in events if e.get("event") == "inside"]


def test_every_change_is_streamed_in_order_narrated_as_the_graph_says(playground):
    session = switch_session(playground)
    watcher = playground.watch(f"/api/sessions/{session}/events?inside=1", last_event_id="0")
    playground.send(session, "advance", "1000")
    watcher.wait_for(lambda events: any(e.get("event") == "out" and e["json"].get("kind") == "disposed" for e in events))
    clock_reached(playground, session, 1000)
    # Once the clock is done, every change the graph holds is on the stream.
    status, graph = playground.json("GET", f"/api/sessions/{session}/inside?since=0")
    assert status == 200
    watcher.wait_for(lambda events: len([e for e in changes(events) if e["json"]["t"] > 0]) >= len(graph["changes"]))
    streamed = changes(watcher.events)
    assert [e["json"]["n"] for e in streamed] == list(range(1, len(streamed) + 1)), "every change from the first, once, in order"
    # Each is numbered after the last event sent before it, and time never goes back.
    last_event, last_t = 0, 0
    for frame in watcher.events:
        if frame.get("event") == "inside":
            assert frame["id"] == f"{last_event}.{frame['json']['n']}", frame
            assert frame["json"]["t"] >= last_t, frame
            last_t = frame["json"]["t"]
        elif frame.get("id"):
            last_event = int(frame["id"])
            last_t = max(last_t, frame["json"]["t"])
    swap = next(e["json"] for e in streamed if "switchToLatest" in e["json"]["narration"])
    assert swap["t"] == 500 and swap["op"] == "swapped", swap
    assert "the old inner subscription is disposed before the new one is subscribed" in swap["narration"]
    # RAC's order: the swap, then the old inner subscription's disposal.
    disposal = next(e["json"]["n"] for e in streamed if e["json"]["op"] == "disposed" and e["json"]["node"] == swap["old"])
    assert swap["n"] < disposal, (swap, disposal)
    # The graph tells the same changes in the same words.
    said = graph["changes"]  # those after 0 ms: `since` is 0
    sent = [{key: value for key, value in e["json"].items() if key != "n"} for e in streamed if e["json"]["t"] > 0]
    assert sent == said, next(((a, b) for a, b in zip(sent, said) if a != b), (len(sent), len(said)))
    watcher.close()


@pytest.mark.parametrize("resume_at", ["a change", "an event"])
def test_one_last_event_id_resumes_events_and_changes_none_lost_none_twice(playground, resume_at):
    session = switch_session(playground)
    first = playground.watch(f"/api/sessions/{session}/events?inside=1", last_event_id="0")
    playground.send(session, "advance", "300")
    first.wait_for(lambda events: any(e.get("event") == "out" and e["json"].get("value") == 1 for e in events))
    frames = [e for e in first.events if e.get("id")]
    kind = "inside" if resume_at == "a change" else None
    candidates = [e for e in frames if (e.get("event") == "inside") == (kind == "inside")]
    cut = candidates[len(candidates) // 2]
    seen = frames[:frames.index(cut) + 1]
    first.close()
    playground.send(session, "advance", "1000")
    again = playground.watch(f"/api/sessions/{session}/events?inside=1", last_event_id=cut["id"])
    again.wait_for(ended("out", "completed"))
    clock_reached(playground, session, 1300)
    status, graph = playground.json("GET", f"/api/sessions/{session}/inside?since=0")
    # The graph lists the changes after 0 ms; those at 0 ms came first.
    at_zero = lambda events: len([e for e in changes(seen + events) if e["json"]["t"] == 0])
    again.wait_for(lambda events: len(changes(seen + events)) >= at_zero(events) + len(graph["changes"]), timeout=5)
    total = at_zero(again.events) + len(graph["changes"])
    numbers = [e["json"]["n"] for e in changes(seen)] + [e["json"]["n"] for e in changes(again.events)]
    assert numbers == list(range(1, total + 1)), ("every change once, in order, across the two connections", cut["id"], numbers)
    event_ids = [int(e["id"]) for e in seen + again.events if e.get("event") != "inside" and e.get("id")]
    assert event_ids == list(range(1, event_ids[-1] + 1)), "every event once, in order"
    assert not [e for e in again.events if e.get("event") == "reset"]
    again.close()


def test_the_search_streams_the_swap_from_jav_to_java(playground):
    """The first Done-when's swap, on the stream: typed `Jav` then `Java` as test_inside.py types
    them, switchToLatest's serial disposable swaps the Jav search for the Java search at 330 ms."""
    status, created = playground.json("POST", "/api/scenarios/search/sessions?clock=virtual")
    session = created["session"]
    watcher = playground.watch(f"/api/sessions/{session}/events?inside=1", last_event_id="0")
    for kind, value in STEPS:
        playground.send(session, "query" if kind == "type" else "advance", str(value))
    swaps = lambda events: [e["json"] for e in changes(events) if e["json"]["op"] == "swapped" and "switchToLatest" in e["json"]["narration"]]
    disposed = lambda events, node: [e["json"]["n"] for e in changes(events) if e["json"]["op"] == "disposed" and e["json"]["node"] == node]
    watcher.wait_for(lambda events: swaps(events) and disposed(events, swaps(events)[0]["old"]))
    swap = swaps(watcher.events)[0]
    assert swap["t"] == 330, swap
    first = next(e["json"] for e in changes(watcher.events) if e["json"]["op"] == "swapped" and e["json"]["node"] == swap["node"])
    assert first["t"] == 150 and first["new"] == swap["old"] and swap["new"] != swap["old"], (first, swap)
    assert swap["n"] < disposed(watcher.events, swap["old"])[0], "RAC's order: the swap, then the old search's disposal"
    watcher.close()


@pytest.mark.parametrize("query, message", [
    ("inside=yes", "inside takes 1"),
    ("inside=1&since=3.x", "since takes"),
    ("inside=1&since=3.4.5", "since takes"),
])
def test_a_bad_inside_or_resume_point_is_refused(playground, query, message):
    session = switch_session(playground)
    status, answer = playground.json("GET", f"/api/sessions/{session}/events?{query}")
    assert status == 400 and message in answer["error"]["message"], answer


def test_a_resume_point_past_the_changes_gets_a_reset(playground):
    session = switch_session(playground)
    playground.send(session, "advance", "1000")
    clock_reached(playground, session, 1000)
    watcher = playground.watch(f"/api/sessions/{session}/events?inside=1", last_event_id="1.999999")
    events = watcher.wait_for(lambda events: any(e.get("event") == "reset" for e in events))
    resets = [json.loads(e["data"]) for e in events if e.get("event") == "reset"]
    assert resets == [{"reason": resets[0]["reason"], "inside": True}] and "GET …/inside" in resets[0]["reason"], resets
    assert not changes(events), "no change is sent from a resume point the session never reached"
    watcher.close()
