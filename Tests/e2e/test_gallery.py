"""The operator gallery's entries (Public/gallery/entries.json): each expected output, written by
hand from RAC 2.x's semantics, is what POST /api/marbles computes with the real operator."""
import json

import pytest

from conftest import ROOT

GALLERY = json.loads((ROOT / "Public/gallery/entries.json").read_text())
ENTRIES = [entry for group in GALLERY["groups"] for entry in group["entries"]]


def program(entry):
    """The entry's program with each input row, `@NAME`, as a cold marbles(…) source (as the page
    builds it: Public/gallery.js)."""
    text = entry["program"]
    for row in entry["inputs"]:
        text = text.replace(f'@{row["name"]}', f'marbles("{row["marbles"]}")')
    return text + "\n"


@pytest.fixture(scope="module")
def server(request):
    from conftest import start_server
    playground = start_server(request, "--marble-runs-per-second", "10000")
    yield playground
    playground.stop()


def test_every_entry_has_a_unique_id_and_the_names_a_search_needs():
    ids = [entry["id"] for entry in ENTRIES]
    assert len(ids) == len(set(ids))
    for entry in ENTRIES:
        for field in ("name", "rac", "reactiveSwift", "rxSwift", "combine", "explanation", "inputs", "program", "expected"):
            assert entry.get(field) not in (None, ""), (entry["id"], field)


@pytest.mark.parametrize("entry", ENTRIES, ids=[entry["id"] for entry in ENTRIES])
def test_the_real_operator_draws_what_rac_defines(server, entry):
    status, answer = server.json("POST", "/api/marbles", program(entry), {"Content-Type": "text/plain"})
    assert status == 200, answer
    assert not answer["truncated"]
    for name, expected in entry["expected"].items():
        drawn = answer["streams"][name]
        assert drawn["marbles"] == expected["marbles"], f"{entry['id']}: {name} drew {drawn['marbles']!r}, values {drawn['values']}"
        assert drawn["values"] == expected["values"]
