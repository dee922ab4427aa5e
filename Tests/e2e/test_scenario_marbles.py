"""POST /api/scenarios/{id}/marbles against a real server: every built-in scenario drawn on rows
of the most events a row may have, and hostile bodies (huge, deep, many rows, every bound), each
answered 200 or a clean 4xx in bounded time; a search session made before still answers."""
import json
import time

from test_more_scenarios import search_still_answers

ALL_EVENTS = "(" + "a" * 29 + "|)"  # 30 events in one frame: the most a row may have


def post(playground, scenario, body, query=""):
    raw_body = body if isinstance(body, bytes) else json.dumps(body).encode()
    status, _, raw = playground.request("POST", f"/api/scenarios/{scenario}/marbles{query}", body=raw_body,
                                        headers={"Content-Type": "application/json"})
    try:
        return status, json.loads(raw)
    except ValueError:
        return status, {}


def hostile(catalogue):
    """(name, scenario, body, query, allowed statuses)."""
    for entry in catalogue:
        names = [item["name"] for item in entry["inputs"]]
        if not names:
            yield f"{entry['id']}: no inputs, to the longest clock", entry["id"], {}, "?until=60000", (200,)
            continue
        values = {"a": True if any(item["kind"] == "bool" for item in entry["inputs"]) else "a"}
        yield f"{entry['id']}: every input at its most events", entry["id"], {"inputs": {name: ALL_EVENTS for name in names}, "values": values}, "", (200, 400)
        yield f"{entry['id']}: rows over a minute", entry["id"], {"inputs": {names[0]: "-" * 59 + "a"}, "frame": 10_000}, "", (400,)
        yield f"{entry['id']}: the longest clock", entry["id"], {"inputs": {name: "a" + "-" * 198 + "|" for name in names}, "frame": 300}, "?until=60000", (200, 400)
    yield "deep JSON", "binding", b"[" * 100_000, "", (400, 413)
    yield "a huge value", "binding", {"inputs": {"fieldA": "-a|"}, "values": {"a": "x" * 100_000}}, "", (400, 413)
    yield "many values", "binding", {"values": {chr(c): "x" for c in range(65, 123) if chr(c).isalpha()}}, "", (200, 400)
    yield "a value that is not text", "binding", {"inputs": {"fieldA": "-a|"}, "values": {"a": [[[[1]]]]}}, "", (400,)
    yield "frame zero", "binding", {"frame": 0}, "", (400,)
    yield "frame as text", "binding", {"frame": "100"}, "", (400,)
    yield "until past the bound", "ticker", {}, "?until=60001", (400,)
    yield "no such scenario", "nothing", {}, "", (404,)
    yield "not an object", "binding", [1, 2, 3], "", (400,)
    yield "unknown input", "binding", {"inputs": {"constructor": "-a|"}}, "", (400,)


def test_hostile_scenario_runs_get_clean_answers_in_bounded_time(make_playground):
    playground = make_playground("--marble-runs-per-second", "1000")
    session = playground.new_session("search")
    status, catalogue = playground.json("GET", "/api/scenarios")
    assert status == 200
    for name, scenario, body, query, allowed in hostile(catalogue["scenarios"]):
        start = time.monotonic()
        status, answer = post(playground, scenario, body, query)
        elapsed = time.monotonic() - start
        assert status in allowed, (name, status, answer)
        if status >= 400 and status != 413:
            assert answer["error"]["code"] and answer["error"]["message"], name
        if status == 200:
            assert set(answer["order"]) == set(answer["streams"]), name
        assert elapsed < 5, f"{name} took {elapsed:.1f} s"
    search_still_answers(playground, session)
