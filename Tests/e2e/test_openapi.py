"""The OpenAPI document is valid OpenAPI 3.1 and is served at /openapi.json."""
import json

from openapi_spec_validator import validate


def test_openapi_document_is_valid_and_served(playground):
    status, headers, body = playground.get("/openapi.json")
    assert status == 200 and headers["Content-Type"] == "application/json"
    document = json.loads(body)
    validate(document)
    assert document["openapi"] == "3.1.0"
