"""The OpenAPI document is valid OpenAPI 3.1 and is served at /openapi.json."""
import json
from pathlib import Path

from jsonschema import Draft202012Validator
from openapi_spec_validator import validate

ROOT = Path(__file__).resolve().parents[2]


def test_openapi_document_is_valid_and_served(playground):
    status, headers, body = playground.get("/openapi.json")
    assert status == 200 and headers["Content-Type"] == "application/json"
    document = json.loads(body)
    validate(document)
    assert document["openapi"] == "3.1.0"


def _event_validator(document):
    """A validator for one Server-Sent Event against the document's item schema."""
    schema = {"$ref": "#/components/schemas/ServerSentEvent", "components": document["components"]}
    return Draft202012Validator(schema)


def _as_item(event):
    item = {"data": event["json"]}
    for field in ("id", "event"):
        if field in event:
            item[field] = event[field]
    return item


def test_every_streamed_event_matches_the_documented_item_schema(playground):
    """Every event of every scenario's stream, snapshot and live, validates against
    `ServerSentEvent`; a stream's event's id is its seq. (schemathesis cannot check these: it reads
    a whole body, and a stream never ends.)"""
    document = json.loads(playground.get("/openapi.json")[2])
    validator = _event_validator(document)
    for scenario in playground.json("GET", "/api/scenarios")[1]["scenarios"]:
        watcher = playground.watch(f"/api/scenarios/{scenario['id']}/events")
        events = watcher.wait_for(lambda events: len(events) >= 1)
        session = events[0]["json"]["session"]
        for source in scenario["inputs"]:
            value = {"text": "abcd", "action": "", "bool": "true", "number": "1"}.get(source["kind"], (source.get("options") or [""])[-1])
            status = playground.request("POST", f"/api/sessions/{session}/inputs/{source['name']}", value,
                                        {"Content-Type": "text/plain"})[0]
            assert status in (202, 400), (scenario["id"], source["name"], status)
        seen = len(events)
        events = watcher.wait_for(lambda events: len(events) > seen)
        watcher.close()
        resumed = playground.watch(f"/api/sessions/{session}/events", last_event_id="99999999")
        events += resumed.wait_for(lambda events: any(event.get("event") == "reset" for event in events))
        resumed.close()
        for event in events:
            errors = sorted(validator.iter_errors(_as_item(event)), key=str)
            assert not errors, (scenario["id"], event, [error.message for error in errors])
            if "id" in event:
                assert int(event["id"]) == event["json"]["seq"]
        assert any(event.get("event") == "session" for event in events)
        assert any(event.get("event") == "reset" for event in events)


def test_the_item_schema_refuses_what_the_server_must_not_send():
    """The schema is not vacuous: malformed events fail it."""
    document = json.loads((ROOT / "Public/openapi.json").read_text())
    validator = _event_validator(document)
    good = {"id": "3", "event": "input:query",
            "data": {"stream": "input:query", "kind": "next", "value": "a", "seq": 3, "t": 1.5, "causes": [3],
                     "thread": "session"}}
    assert validator.is_valid(good)
    for bad in [
        {**good, "id": "03"},
        {**good, "event": "session"},
        {**good, "data": {**good["data"], "kind": "done"}},
        {**good, "data": {key: value for key, value in good["data"].items() if key != "causes"}},
        {**good, "data": {**good["data"], "causes": ["3"]}},
        {**good, "data": {key: value for key, value in good["data"].items() if key != "thread"}},
        {**good, "data": {**good["data"], "thread": "main"}},
        {"event": "session", "data": {"session": "x"}},
        {"event": "reset", "id": "4", "data": {"reason": "gone"}},
    ]:
        assert not validator.is_valid(bad), bad
