"""What a link acknowledges reads back exactly (docs/API.md, "Links"): for every kind, on SQLite and
PostgreSQL, over generated texts — any Unicode, combining marks, emoji, line separators, U+FFFF —
the title and content that `POST /api/links` (or a kept run) answered are what `GET /api/links/ID`
gives; a text holding U+0000, which no store keeps exactly, is refused before anything is kept."""
import json
import time

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import start_server
from test_links import JSON, STORES, database, keep, lesson_of_my_own  # noqa: F401 (the fixture)

# Any scalar but a surrogate (JSON cannot carry one alone), with the awkward ones drawn often.
AWKWARD = st.sampled_from(["\x00", "\u0301", "\U0001F600", "\u2028", "\ufeff", "\uffff", "\\", '"', "\t", "\n", "é"])
# (`st.characters()` alone draws surrogates too: a property run found one, answered 400.)
TEXTS = st.text(st.one_of(st.characters(exclude_categories=["Cs"]), AWKWARD), min_size=1, max_size=120)
LINE = TEXTS.map(lambda text: text.replace("\n", " ").replace("\r", " "))
FAST_LINKS = ["--link-saves-per-second", "10000", "--link-save-burst", "100000", "--program-checks-per-second", "10000",
              "--recordings-per-second", "1000"]
PROPERTY = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.fixture
def server(request, database):
    server = start_server(request, "--database", database, *FAST_LINKS)
    yield server
    server.stop()


def input_values(events):
    return [event.get("value") for event in events if event.get("stream") == "input:query"]


def kept_and_read(server, body):
    """Keeps `body` as a link; returns (status, the answer, the link read back by its id)."""
    status, answer = keep(server, body)
    if status not in (200, 201):
        return status, answer, None
    status_read, read = server.json("GET", f"/api/links/{answer['id']}")
    assert status_read == 200, read
    return status, answer, read


def check(server, kind, title, content):
    """The property: refused as `invalid_text` when it holds U+0000, refused for its form (title's
    rules) otherwise when it must be, and else read back as acknowledged."""
    status, answer, read = kept_and_read(server, {"kind": kind, "title": title, "content": content})
    if "\x00" in title or "\x00" in content:
        assert status == 400 and answer["error"]["code"] in ("invalid_text", "invalid_link"), answer
        if answer["error"]["code"] == "invalid_link":
            # The title was refused first, for its form: so it is with any content.
            status, alone = keep(server, {"kind": kind, "title": title, "content": "x = just(1)\n"})
            assert (status, alone["error"]["code"]) == (400, "invalid_link"), alone
        return
    if status == 400:
        assert answer["error"]["code"] == "invalid_link", answer  # a title that is no one-line title
        return
    assert status in (200, 201), answer
    assert read["title"] == answer["title"] == title.strip(), (read["title"], answer["title"])
    assert read["content"] == content, "the content reads back byte for byte"
    assert read["kind"] == kind and read["id"] == answer["id"]


@pytest.mark.parametrize("database", STORES, indirect=True)
def test_a_program_reads_back_as_acknowledged(server):
    @PROPERTY
    @given(title=LINE, text=TEXTS)
    def program(title, text):
        comment = "\n".join("// " + line for line in text.split("\n"))
        check(server, "program", title, comment + "\nx = just(1)\n")

    program()


@pytest.mark.parametrize("database", STORES, indirect=True)
def test_a_lesson_and_a_course_read_back_as_acknowledged(server):
    @PROPERTY
    @given(title=LINE, text=TEXTS)
    def lesson_and_course(title, text):
        lesson = lesson_of_my_own()
        lesson["explanation"] = [text if text.strip() else "a paragraph"]
        check(server, "lesson", title, json.dumps(lesson, ensure_ascii=False))
        check(server, "course", title, json.dumps({"lessons": ["reading-marbles"]}))

    lesson_and_course()


@pytest.mark.parametrize("database", STORES[:1], indirect=True)
def test_a_lone_surrogate_is_no_text_and_is_refused_as_json(server):
    """`"\\ud800"` is valid JSON syntax but names no Unicode scalar: no Swift string, no UTF-8 can
    hold it, so an input and a link's title refuse it as 400 invalid_json rather
    than keep something else than was sent."""
    session = server.new_session("search")
    status, answer = server.json("POST", f"/api/sessions/{session}/inputs/query", '"\\ud800"', JSON)
    assert status == 400 and answer["error"]["code"] == "invalid_json", answer
    status, answer = server.json("POST", "/api/links", '{"kind": "program", "title": "\\udfff", "content": "a = just(1)"}', JSON)
    assert status == 400 and answer["error"]["code"] == "invalid_json", answer


@pytest.mark.parametrize("database", STORES, indirect=True)
def test_a_run_reads_back_as_acknowledged(server):
    """A run's content is the server's (its session's recording): its input's value, whatever it
    is, is in the run read back, and its title as acknowledged."""
    @PROPERTY
    @given(title=LINE, query=TEXTS)
    def run(title, query):
        session = server.new_session("search")
        status, _ = server.json("POST", f"/api/sessions/{session}/inputs/query", json.dumps(query), JSON)
        assert status == 202
        # 202: accepted, and applied on the session's thread; the run is kept once it has it.
        deadline = time.monotonic() + 5
        while query not in input_values(server.json("GET", f"/api/sessions/{session}/recording")[1]["events"]):
            assert time.monotonic() < deadline, "the input never reached the session"
            time.sleep(0.01)
        status, answer = server.json("POST", f"/api/sessions/{session}/recording", json.dumps({"title": title}), JSON)
        if status == 400:
            assert answer["error"]["code"] == "invalid_value", answer  # a title that cleans to nothing
            return
        assert status in (200, 201), answer
        status, read = server.json("GET", f"/api/links/{answer['id']}")
        assert status == 200 and read["title"] == answer["title"] and read["kind"] == "run"
        assert query in input_values(json.loads(read["content"])["events"]), "the value, exactly"
        server.json("DELETE", f"/api/sessions/{session}")

    run()
