"""Links (docs/API.md, "Links"): a program or a course kept by the real server, read back, kept
again as the same link, refused clearly when it is not what its kind says, kept across a restart
in SQLite, and opened in Chromium at its own address, `/s/ID`, where the editor keeps a new
version of it."""
import json
import os
import pathlib
import random
import re
import shutil
import socket
import string
import subprocess
import tempfile
import time

import pytest

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import ARTIFACTS, FAST, start_server
from test_lessons import LESSONS, axe_clean
from test_page import check_console, wait

JSON = {"Content-Type": "application/json"}
PROGRAM = "input query: text\nthrottled = query.throttle(0.5s)\n"
ID = re.compile(r"[2-9a-hjkmnp-z]{16}")


def keep(server, body, headers=JSON):
    return server.json("POST", "/api/links", json.dumps(body) if not isinstance(body, str) else body, headers)


def test_a_program_is_kept_read_back_and_kept_again_as_the_same_link(playground):
    status, link = keep(playground, {"kind": "program", "title": "  Throttled  ", "content": PROGRAM})
    assert status == 201, link
    assert ID.fullmatch(link["id"]) and link["url"] == f"/s/{link['id']}"
    assert link["kind"] == "program" and link["title"] == "Throttled" and link.get("from") is None and "content" not in link
    status, again = keep(playground, {"kind": "program", "title": "Throttled", "content": PROGRAM})
    assert status == 200 and again == link, "the same content is the same link"
    status, read = playground.json("GET", f"/api/links/{link['id']}")
    assert status == 200 and read["content"] == PROGRAM and read["created"] == link["created"]
    # An edit is a new link, made from the old one.
    status, edited = keep(playground, {"kind": "program", "title": "Throttled", "content": PROGRAM + "valid = query\n", "from": link["id"]})
    assert status == 201 and edited["id"] != link["id"] and edited["from"] == link["id"]
    # The page at the link's own address; an id of another form is 404 at once.
    status, headers, body = playground.request("GET", f"/s/{link['id']}")
    assert status == 200 and headers["Content-Type"].startswith("text/html") and b'src="/app.js"' in body
    for path in ("/s/short", "/s/AAAAAAAAAAAAAAAA", "/api/links/aaaa%27%20OR%201%3D1", f"/api/links/{link['id'][:-1]}1"):
        status, answer = playground.json("GET", path)
        assert status == 404 and answer["error"]["code"] == "link_not_found", (path, answer)


def test_what_a_link_is_not_is_refused_clearly(playground):
    cases = [
        ({"kind": "program", "title": "Broken", "content": "out = a.tak(2)"}, 422, "program_invalid"),
        ({"kind": "poem", "title": "x", "content": "x"}, 400, "invalid_link"),
        ({"kind": "program", "content": PROGRAM}, 400, "invalid_link"),
        ({"kind": "program", "title": "", "content": PROGRAM}, 400, "invalid_link"),
        ({"kind": "program", "title": "x" * 201, "content": PROGRAM}, 400, "invalid_link"),
        ({"kind": "program", "title": "x", "content": "x" * (64 * 1024 + 1)}, 413, "payload_too_large"),
        ({"kind": "lesson", "title": "x", "content": json.dumps({**LESSONS[0], "predict": "nothing"})}, 422, "lesson_invalid"),
        ({"kind": "lesson", "title": "x", "content": "not json"}, 422, "lesson_invalid"),
        ({"kind": "program", "title": "two\nlines", "content": PROGRAM}, 400, "invalid_link"),
        ({"kind": "program", "title": "x", "content": ""}, 400, "invalid_link"),
        ({"kind": "program", "title": "x", "content": PROGRAM, "secret": 1}, 400, "invalid_link"),
        ({"kind": "program", "title": "x", "content": PROGRAM, "from": "nope"}, 400, "invalid_link"),
        ({"kind": "program", "title": "x", "content": PROGRAM, "from": "a" * 16}, 422, "from_unknown"),
        ({"kind": "course", "title": "x", "content": "not json"}, 422, "course_invalid"),
        ({"kind": "course", "title": "x", "content": json.dumps({"lessons": ["no-such-lesson"]})}, 422, "course_invalid"),
        ({"kind": "course", "title": "x", "content": json.dumps({"lessons": ["reading-marbles"] * 101})}, 422, "course_invalid"),
        ("[1, 2]", 400, "invalid_json"),
        ("[" * 30000 + "]" * 30000, 400, "invalid_json"),
        ({"kind": "course", "title": "x", "content": '{"lessons":' + "[" * 20000 + "]" * 20000 + "}"}, 422, "course_invalid"),
        ("{", 400, "invalid_json"),
    ]
    for body, status, code in cases:
        answered, answer = keep(playground, body)
        assert (answered, answer["error"]["code"]) == (status, code), (body, answer)
        assert answer["error"]["message"], body
    answered, answer = keep(playground, {"kind": "program", "title": "Broken", "content": "out = a.tak(2)"})
    assert "did you mean `take`?" in json.dumps(answer["error"]["diagnostics"]), answer
    answered, answer = keep(playground, {"kind": "lesson", "title": "x", "content": json.dumps({**LESSONS[0], "predict": "nothing"})})
    assert [problem["field"] for problem in answer["error"]["problems"]] == ["expected"], answer
    status, _, _ = playground.request("POST", "/api/links", "x", {"Content-Type": "text/plain"})
    assert status == 415
    status, _, _ = playground.request("POST", "/api/links", "x" * (200 * 1024), JSON)
    assert status == 413, "a body past --max-body-bytes"
    assert playground.request("GET", "/healthz")[0] == 200, "nothing above harmed the server"
    status, course = keep(playground, {"kind": "course", "title": "First steps",
                                       "content": json.dumps({"lessons": ["reading-marbles", "filtering"]})})
    assert status == 201 and course["kind"] == "course", course


def test_a_class_keeps_links_at_once_and_a_flood_is_slowed(make_playground):
    """Thirty learners behind one address keep their programs at once; past the burst, 429."""
    server = make_playground("--link-saves-per-second", "1", "--link-save-burst", "30")
    answers = [keep(server, {"kind": "program", "title": f"Learner {n}", "content": PROGRAM})[0] for n in range(30)]
    assert answers == [201] * 30, answers
    status, answer = keep(server, {"kind": "program", "title": "One more", "content": PROGRAM})
    assert status == 429 and answer["error"]["code"] == "rate_limited"


def test_a_link_answered_201_survives_kill_9_right_after(request, tmp_path):
    """SQLite: the process killed (SIGKILL, no chance to flush) as soon as its 201 arrives; a
    new process on the same file reads the link."""
    database = f"sqlite:{tmp_path / 'kept' / 'links.sqlite'}"
    first = start_server(request, "--database", database)
    try:
        status, link = keep(first, {"kind": "program", "title": "Kept", "content": PROGRAM})
        first.process.kill()
        assert status == 201
    finally:
        first.stop()
    second = start_server(request, "--database", database)
    try:
        status, read = second.json("GET", f"/api/links/{link['id']}")
        assert status == 200 and read["content"] == PROGRAM and read["title"] == "Kept"
    finally:
        second.stop()


def test_a_link_opens_in_the_editor_and_an_edit_is_kept_as_a_new_version(browser, playground):
    status, link = keep(playground, {"kind": "program", "title": "Throttled", "content": PROGRAM})
    assert status == 201
    browser.set_window_size(1280, 900)
    browser.get("about:blank")
    browser.get_log("browser")
    browser.get(f"{playground.url}/s/{link['id']}")
    wait(browser, lambda: browser.find_element(By.ID, "program").get_attribute("value") == PROGRAM)
    assert browser.current_url.startswith(f"{playground.url}/s/{link['id']}"), "the address still names the link"
    assert browser.find_element(By.ID, "keep-title").get_attribute("value") == "Throttled"
    assert f"/s/{link['id']}" in browser.find_element(By.ID, "keep-status").text
    # An edit, kept by keyboard: a new link, from the old one; both remembered in this browser.
    editor = browser.find_element(By.ID, "program")
    editor.send_keys(Keys.CONTROL, Keys.END)
    editor.send_keys("valid = query.filter { $0.count > 2 }")
    title = browser.find_element(By.ID, "keep-title")
    title.send_keys(Keys.ENTER)
    status_line = browser.find_element(By.ID, "keep-status")
    wait(browser, lambda: "a new version of" in status_line.text)
    new_id = status_line.find_element(By.TAG_NAME, "a").get_attribute("href").rsplit("/", 1)[1]
    assert ID.fullmatch(new_id) and new_id != link["id"]
    status, read = playground.json("GET", f"/api/links/{new_id}")
    assert read["from"] == link["id"] and read["content"].endswith("valid = query.filter { $0.count > 2 }")
    remembered = browser.execute_script("return JSON.parse(localStorage.getItem('playground.links')).map((item) => item.id)")
    assert remembered[:2] == [new_id, link["id"]], remembered
    browser.save_screenshot(str(ARTIFACTS / "link-kept-1280px.png"))
    # My links: both listed, newest first; removing one takes it off the list only.
    browser.find_element(By.ID, "my-links-link").click()
    listed = lambda: [item.get_attribute("data-link") for item in browser.find_elements(By.CSS_SELECTOR, "#my-links-list li")]
    wait(browser, lambda: listed() == [new_id, link["id"]])
    axe_clean(browser)
    browser.find_element(By.CSS_SELECTOR, f'#my-links-list li[data-link="{new_id}"] button').send_keys(Keys.ENTER)
    wait(browser, lambda: listed() == [link["id"]])
    assert browser.switch_to.active_element.text == "Remove", "the focus stays in the list"
    assert playground.json("GET", f"/api/links/{new_id}")[0] == 200, "the link itself stays"
    # A link that names nothing says so.
    browser.get(f"{playground.url}/s/{'a' * 16}")
    wait(browser, lambda: "No link has this id" in browser.find_element(By.ID, "notice").text)
    refused = [entry["message"] for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert all("/api/links/" in message and "404" in message for message in refused), refused
    browser.get(f"{playground.url}/s/{link['id']}")
    wait(browser, lambda: browser.find_element(By.ID, "program").get_attribute("value") == PROGRAM)
    axe_clean(browser)
    check_console(browser)


def test_a_course_link_opens_as_its_lessons_in_its_order(browser, playground):
    status, course = keep(playground, {"kind": "course", "title": "Filters first",
                                       "content": json.dumps({"lessons": ["filtering", "reading-marbles"]})})
    assert status == 201
    browser.set_window_size(1280, 900)
    browser.get("about:blank")
    browser.get_log("browser")
    browser.get(f"{playground.url}/s/{course['id']}")
    listed = lambda: [item.get_attribute("data-lesson") for item in browser.find_elements(By.CSS_SELECTOR, "#learn-list li")]
    wait(browser, lambda: listed() == ["filtering", "reading-marbles"])
    assert browser.find_element(By.ID, "learn-title").text == "Course: Filters first"
    assert browser.find_element(By.ID, "learn-next").get_attribute("href").endswith("#learn/filtering")
    # A lesson of the course leads to the course's next lesson, not the path's.
    browser.find_element(By.ID, "learn-next").click()
    wait(browser, lambda: browser.find_element(By.ID, "lesson-next").get_attribute("href").endswith("#learn/reading-marbles"))
    axe_clean(browser)
    browser.execute_script("location.hash = 'learn'")
    wait(browser, lambda: len(listed()) > 2)
    assert browser.find_element(By.ID, "learn-title").text.startswith("Learn ReactiveCocoa")
    check_console(browser)


POSTGRES = os.environ.get("PLAYGROUND_TEST_POSTGRES")


def lesson_of_my_own():
    """A lesson as an author writes it on the page: the first lesson's, retold."""
    lesson = json.loads(json.dumps(LESSONS[0]))
    lesson.update(id="my-skip", title="Skipping, my way")
    return lesson


def every_kind(server):
    """Each kind kept, kept again as the same link, and read back; a course of a built-in lesson
    and the lesson link."""
    kept = {}
    lesson = json.dumps(lesson_of_my_own())
    for kind, content in (("program", PROGRAM), ("lesson", lesson)):
        status, link = keep(server, {"kind": kind, "title": f"My {kind}", "content": content})
        assert status == 201, link
        kept[kind] = link
    course = json.dumps({"lessons": ["reading-marbles", kept["lesson"]["id"]]})
    status, kept["course"] = keep(server, {"kind": "course", "title": "My course", "content": course})
    assert status == 201, kept["course"]
    for kind, content in (("program", PROGRAM), ("lesson", lesson), ("course", course)):
        status, again = keep(server, {"kind": kind, "title": f"My {kind}", "content": content})
        assert status == 200 and again["id"] == kept[kind]["id"], "the same content is the same link"
        status, read = server.json("GET", f"/api/links/{kept[kind]['id']}")
        assert status == 200 and read["kind"] == kind and read["content"] == content, read
    return kept


STORES = ["sqlite", pytest.param("postgresql", marks=pytest.mark.skipif(
    not POSTGRES, reason="no PostgreSQL (the test command starts one and sets PLAYGROUND_TEST_POSTGRES)"))]


@pytest.fixture
def database(request):
    """`--database` for the store named by the test's parameter: SQLite in memory, or a new
    database on the test command's PostgreSQL (dropped after)."""
    if request.param == "sqlite":
        yield "sqlite::memory:"
        return
    name = f"playground_e2e_{os.getpid()}_{int(time.time() * 1000)}"
    subprocess.run(["psql", "-qX", POSTGRES, "-c", f"CREATE DATABASE {name}"], check=True)
    yield POSTGRES.rsplit("/", 1)[0] + "/" + name
    subprocess.run(["psql", "-qX", POSTGRES, "-c", f"DROP DATABASE {name} WITH (FORCE)"], check=False)


@pytest.mark.parametrize("database", STORES, indirect=True)
def test_every_kind_is_kept_and_read(request, database):
    server = start_server(request, "--database", database)
    try:
        kept = every_kind(server)
        for path in ("/api/links/" + ("b" if kept["program"]["id"][0] == "a" else "a") + kept["program"]["id"][1:], "/api/links/aaaa"):
            status, answer = server.json("GET", path)
            assert status == 404 and answer["error"]["code"] == "link_not_found", (path, answer)
    finally:
        server.stop()


@pytest.mark.parametrize("database", STORES, indirect=True)
def test_a_full_store_refuses_new_links_with_507_and_reads_the_old(request, database):
    server = start_server(request, "--database", database, "--max-store-bytes", "65536", "--max-body-bytes", "200000")
    try:
        status, answer = keep(server, {"kind": "program", "title": "x", "content": "x" * (64 * 1024 + 1)})
        assert (status, answer["error"]["code"]) == (413, "content_too_large"), "content is at most 64 KiB, whatever the body's limit"
        # Random text: PostgreSQL compresses what repeats, and the cap counts bytes on disk.
        big = lambda n: f"x{n} = just(\"" + "".join(random.choices(string.ascii_letters, k=30_000)) + "\")"
        contents = [big(n) for n in range(8)]
        answers = []
        for n, content in enumerate(contents):
            answers.append(keep(server, {"kind": "program", "title": f"Big {n}", "content": content}))
            if answers[-1][0] != 201:
                break
        assert answers[0][0] == 201 and answers[-1][0] == 507, [status for status, _ in answers]
        assert answers[-1][1]["error"]["code"] == "storage_full"
        assert keep(server, {"kind": "program", "title": "Big 0", "content": contents[0]})[0] == 200, "a kept link is answered"
        assert server.json("GET", f"/api/links/{answers[0][1]['id']}")[0] == 200
        metrics = server.request("GET", "/metrics")[2].decode()
        assert re.search(r'playground_link_refusals_total\{reason="storage_full"\} [1-9]', metrics), metrics
        assert re.search(r"playground_store_bytes [1-9]", metrics)
        assert re.search(r'playground_links_kept_total\{kind="program",new="true"\} [1-9]', metrics)
    finally:
        server.stop()


@pytest.fixture
def own_postgres():
    """A PostgreSQL server of this test's own (Debian's binaries, a fresh cluster on a free
    port), so that stopping it harms no other test; answers its URL and a `pg_ctl` runner."""
    binaries = sorted(pathlib.Path("/usr/lib/postgresql").glob("*/bin"))
    if not binaries:
        pytest.skip("no PostgreSQL binaries (the test command installs Debian's postgresql)")
    folder = pathlib.Path(tempfile.mkdtemp(prefix="playground-pg-"))
    as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    if as_postgres:
        shutil.chown(folder, "postgres")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    data = folder / "data"
    run = lambda *args: subprocess.run([*as_postgres, str(binaries[-1] / args[0]), *args[1:]], check=True, capture_output=True)
    run("initdb", "-D", str(data), "-U", "playground", "--auth=trust")
    # The server's output goes to a file: a pipe kept open by it would never end pg_ctl's.
    pg_ctl = lambda action: run("pg_ctl", "-D", str(data), "-l", str(folder / "log"), "-w",
                                "-o", f"-p {port} -k {folder} -c listen_addresses=127.0.0.1", action)
    pg_ctl("start")
    yield f"postgres://playground@127.0.0.1:{port}/postgres", pg_ctl
    subprocess.run([*as_postgres, str(binaries[-1] / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"], capture_output=True)
    shutil.rmtree(folder, ignore_errors=True)


def test_postgresql_stopped_fails_only_links_at_once_and_back_they_work(request, own_postgres):
    """PostgreSQL stopped while the server runs: the links' routes answer 503 within a second, a
    scenario session still streams; PostgreSQL back: links are kept again, without a restart."""
    url, pg_ctl = own_postgres
    server = start_server(request, "--database", url, *FAST)
    try:
        status, link = keep(server, {"kind": "program", "title": "Before", "content": PROGRAM})
        assert status == 201
        pg_ctl("stop")
        started = time.monotonic()
        status, answer = keep(server, {"kind": "program", "title": "While down", "content": PROGRAM})
        elapsed = time.monotonic() - started
        assert status == 503 and answer["error"]["code"] == "storage_unavailable" and elapsed < 1, (status, elapsed)
        assert server.json("GET", f"/api/links/{link['id']}")[0] == 503
        said = lambda: sum("the store could not answer" in line for line in server.log)
        deadline = time.monotonic() + 5  # the log is read from the server's stderr on a thread of its own
        while said() == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert said() == 1, "the store's failure is logged once, not once a request"
        session = server.new_session("ticker")
        stream = server.watch(f"/api/sessions/{session}/events")
        stream.wait_for(lambda events: len([e for e in events if e.get("event") == "count"]) >= 2, timeout=10)
        stream.close()
        pg_ctl("start")
        status, again = keep(server, {"kind": "program", "title": "After", "content": PROGRAM})
        assert status == 201, again
        assert server.json("GET", f"/api/links/{link['id']}")[0] == 200
    finally:
        server.stop()


@pytest.mark.skipif(not POSTGRES, reason="no PostgreSQL (the test command starts one and sets PLAYGROUND_TEST_POSTGRES)")
def test_instances_share_links_through_postgresql(request):
    """Two instances on one PostgreSQL database: a link kept through one is read through the
    other, and the same program kept through both is one link. The URL's password is never in a
    log line, and a database that is down fails only the links' routes, with 503."""
    name = f"playground_e2e_{os.getpid()}_{int(time.time())}"
    subprocess.run(["psql", "-qX", POSTGRES, "-c", f"CREATE DATABASE {name}"], check=True)
    url = POSTGRES.rsplit("/", 1)[0] + "/" + name
    blue, green = start_server(request, "--database", url), start_server(request, "--database", url)
    try:
        status, link = keep(blue, {"kind": "program", "title": "Shared", "content": PROGRAM})
        assert status == 201
        status, read = green.json("GET", f"/api/links/{link['id']}")
        assert status == 200 and read["content"] == PROGRAM
        status, again = keep(green, {"kind": "program", "title": "Shared", "content": PROGRAM})
        assert status == 200 and again["id"] == link["id"]
    finally:
        blue.stop()
        green.stop()
        subprocess.run(["psql", "-qX", POSTGRES, "-c", f"DROP DATABASE {name} WITH (FORCE)"], check=False)
    password = POSTGRES.split("@")[0].rsplit(":", 1)[1]
    assert not [line for line in blue.log + green.log if password in line], "the password is never logged"
    # A database that is down fails only the links' routes, with 503, and never shows its password.
    down = start_server(request, "--database", "postgres://nobody:s3cret@127.0.0.1:1/none")
    try:
        status, answer = keep(down, {"kind": "course", "title": "x", "content": json.dumps({"lessons": ["filtering"]})})
        assert status == 503 and answer["error"]["code"] == "storage_unavailable", answer
        assert down.json("GET", f"/api/links/{link['id']}")[0] == 503
        assert down.request("GET", "/healthz")[0] == 200
        assert down.new_session("search"), "the scenarios work meanwhile"
    finally:
        down.stop()
    assert any("links unavailable until PostgreSQL answers" in line for line in down.log), down.log
    assert not [line for line in down.log if "s3cret" in line], "the password is never logged"


def test_a_course_is_made_on_the_page_by_keyboard_and_kept_by_a_link(browser, playground):
    """Lessons ticked, reordered with Up and Down, titled and kept: the link opens that course."""
    browser.set_window_size(1280, 900)
    browser.get("about:blank")
    browser.get_log("browser")
    browser.get(f"{playground.url}/#learn")
    browser.execute_script("localStorage.removeItem('playground.lessons')")  # the whole path's progress, from nothing
    wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "#course-choices input"))
    browser.find_element(By.CSS_SELECTOR, "#course-maker summary").send_keys(Keys.ENTER)
    for lesson in ("reading-marbles", "switch-to-latest", "filtering"):
        browser.find_element(By.ID, f"course-choice-{lesson}").send_keys(Keys.SPACE)
    order = lambda: [item.get_attribute("data-lesson") for item in browser.find_elements(By.CSS_SELECTOR, "#course-order li")]
    wait(browser, lambda: order() == ["reading-marbles", "switch-to-latest", "filtering"])
    browser.find_element(By.CSS_SELECTOR, '#course-order li[data-lesson="filtering"] button').send_keys(Keys.ENTER)  # Up
    wait(browser, lambda: order() == ["reading-marbles", "filtering", "switch-to-latest"])
    assert browser.switch_to.active_element.text == "Up", "the focus stays on the moved lesson"
    browser.find_element(By.ID, "course-choice-reading-marbles").send_keys(Keys.SPACE)  # taken out again
    wait(browser, lambda: order() == ["filtering", "switch-to-latest"])
    title = browser.find_element(By.ID, "course-title")
    title.send_keys("Filter, then flatten", Keys.ENTER)
    status = browser.find_element(By.ID, "course-status")
    wait(browser, lambda: status.text.startswith("Kept as"))
    axe_clean(browser)
    link = status.find_element(By.TAG_NAME, "a").get_attribute("href")
    course_id = link.rsplit("/", 1)[1]
    status_code, read = playground.json("GET", f"/api/links/{course_id}")
    assert status_code == 200 and read["kind"] == "course" and json.loads(read["content"]) == {"lessons": ["filtering", "switch-to-latest"]}
    browser.get(link)
    listed = lambda: [item.get_attribute("data-lesson") for item in browser.find_elements(By.CSS_SELECTOR, "#learn-list li")]
    wait(browser, lambda: listed() == ["filtering", "switch-to-latest"])
    assert browser.find_element(By.ID, "learn-title").text == "Course: Filter, then flatten"
    # Progress is kept per course: a lesson passed in the course is done there, not on the whole path.
    from test_lessons import check_challenge, open_lesson
    open_lesson(browser, "filtering")
    solution = next(lesson for lesson in LESSONS if lesson["id"] == "filtering")["challenge"]["solution"]
    assert check_challenge(browser, solution).get_attribute("data-passed") == "true"
    browser.execute_script("location.hash = 'learn/switch-to-latest'")
    wait(browser, lambda: browser.find_element(By.ID, "lesson-title").text.endswith("switchToLatest"))
    browser.execute_script("location.hash = 'learn'")
    state = lambda lesson: browser.find_element(By.CSS_SELECTOR, f'#learn-list li[data-lesson="{lesson}"] .lesson-state').text
    wait(browser, lambda: len(listed()) > 2)
    assert state("filtering") == "— not started", "the whole path's progress is its own"
    browser.get(link)
    wait(browser, lambda: listed() == ["filtering", "switch-to-latest"])
    assert state("filtering") == "— done"
    check_console(browser)
