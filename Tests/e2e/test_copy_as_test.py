""""Copy as a test" (POST /api/marbles/test), proven on everything the page shows: the test of every
gallery entry, of every example program (its inputs given rows) and of every lesson program or
solution that writes RAC's own constructs (createSignal, subjects, connections, channels) is written by the server,
compiled in a package of its own that depends on this one as an app would (products Pipelines,
ProgramServices, ReactiveTesting, Scenarios), and run — and they pass; the same test with one expected value changed
fails."""
import json
import re
import subprocess

import pytest

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import ARTIFACTS, ROOT
from test_gallery import ENTRIES
from test_page import wait

PACKAGE = ROOT / ".build/marble-tests"
MANIFEST = """// swift-tools-version:6.0
import PackageDescription

// Tests written by Reactive Playground's "Copy as a test" (Tests/e2e/test_copy_as_test.py): a
// package of someone else's, depending on the playground's package by path.
let package = Package(
    name: "MarbleTests",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "ReactivePlayground", path: "../..")],
    targets: [
        .testTarget(
            name: "MarbleTests",
            dependencies: [
                .product(name: "Pipelines", package: "ReactivePlayground"),
                .product(name: "ProgramServices", package: "ReactivePlayground"),
                .product(name: "ReactiveTesting", package: "ReactivePlayground"),
                .product(name: "Scenarios", package: "ReactivePlayground"),
            ]
        )
    ]
)
"""
# Rows for the examples' inputs, by kind: each example is stated with these.
ROWS = {
    "text": ('-a---b------------c-------------|', {"a": "sw", "b": "swift", "c": "swe!fail"}),
    "number": ("-1--2---3|", {}),
    "action": ("-x--x--x|", {}),
    "bool": ("-t--f|", {"t": True, "f": False}),
}


def entry_program(entry):
    """The entry's program as the page builds it (Public/operators/gallery.js `program()`): each input row a
    named stream `NAME = marbles(…)` with its values and nested diagrams, read where it says `@NAME`."""
    rows = []
    text = entry["program"]
    for row in entry["inputs"]:
        values = "".join(f", {letter}: {json.dumps(value)}" for letter, value in row.get("values", {}).items())
        nested = "".join(f', {letter}: marbles("{inner}")' for letter, inner in row.get("nested", {}).items())
        rows.append(f'{row["name"]} = marbles("{row["marbles"]}"{values}{nested})')
        text = text.replace(f'@{row["name"]}', row["name"])
    return "\n".join([*rows, text])


def example_program(example):
    """An example's program with each `input NAME: KIND` given a row of its kind."""
    lines = []
    for line in example["program"].splitlines():
        declared = re.fullmatch(r"\s*input (\w+): (\w+)\s*", line)
        if declared:
            marbles, values = ROWS[declared.group(2)]
            given = "".join(f", {letter}: {json.dumps(value)}" for letter, value in values.items())
            lines.append(f'{declared.group(1)} = marbles("{marbles}"{given})')
        else:
            lines.append(line)
    return "\n".join(lines) + "\n"


# Lessons whose programs write RAC's own constructs (#73): each program and solution is also proven.
RAC_CONSTRUCTS = ("createSignal", ".multicast(", "channel()", "subject()", "replaySubject(")


def lesson_programs():
    """(name, program text, title) of every lesson program and challenge solution that writes one of
    RAC's constructs, each row a named stream as the page writes it (Lesson.Row's program line)."""
    from test_lessons import LESSONS

    def rows(inputs):
        lines = []
        for row in inputs:
            values = "".join(f", {letter}: {json.dumps(value)}" for letter, value in sorted(row.get("values", {}).items()))
            lines.append(f'{row["name"]} = marbles({json.dumps(row["marbles"])}{values})')
        return lines

    found = []
    for lesson in LESSONS:
        base = "lesson" + "".join(part.capitalize() for part in lesson["id"].split("-"))
        challenge = lesson.get("challenge", {})
        for suffix, program, inputs in (("", lesson.get("program"), lesson.get("inputs", [])),
                                        ("Solution", challenge.get("solution"), challenge.get("inputs", []))):
            if program and any(construct in program for construct in RAC_CONSTRUCTS):
                found.append((base + suffix, "\n".join([*rows(inputs), program]) + "\n", lesson["title"]))
    return found


def test_the_lessons_of_rac_constructs_are_found():
    names = [name for name, _, _ in lesson_programs()]
    assert {"lessonReplay", "lessonReplaySolution", "lessonCallbacksIntoSignals", "lessonTwoWayBindingSolution"} <= set(names), names


def write_test(server, text, name, title, streams=None):
    query = f"?name={name}&title={title.replace(' ', '%20')}" + (f"&streams={','.join(streams)}" if streams else "")
    status, headers, body = server.request("POST", f"/api/marbles/test{query}", body=text.encode(),
                                           headers={"Content-Type": "text/plain"})
    assert status == 200, f"{name}: {body[:500]!r}"
    return body.decode()


def swift_test(*args):
    return subprocess.run(["swift", "test", "--package-path", str(PACKAGE), *args], capture_output=True, text=True, timeout=1800)


@pytest.fixture(scope="module")
def server(request):
    from conftest import start_server
    playground = start_server(request, "--marble-runs-per-second", "10000")
    yield playground
    playground.stop()


def test_the_route_refuses_what_cannot_be_a_test(server):
    for query, code in (("?name=1abc", "invalid_value"), ("?title=a%0Ab", "invalid_value"), ("?streams=a,,b", "invalid_value")):
        status, _, body = server.request("POST", f"/api/marbles/test{query}", body=b"out = just(1)\n", headers={"Content-Type": "text/plain"})
        assert status == 400 and json.loads(body)["error"]["code"] == code, query
    status, _, body = server.request("POST", "/api/marbles/test", body=b"out = nothing(1)\n", headers={"Content-Type": "text/plain"})
    assert status == 400 and json.loads(body)["error"]["code"] == "pipeline_invalid"
    status, _, body = server.request("POST", "/api/marbles/test", body=b"out = interval(0.01s).map { $0 * $0 }\n",
                                     headers={"Content-Type": "text/plain"})
    assert status == 200 and b"until: 60000" in body, "a run stopped by the clock is stated up to it"


def test_every_entry_and_example_is_written_compiled_and_passes_and_a_wrong_one_fails(server):
    _, examples = server.json("GET", "/api/pipelines/examples")
    sources = {}
    for entry in ENTRIES:
        name = "gallery" + entry["id"][0].upper() + entry["id"][1:]
        sources[name] = write_test(server, entry_program(entry), name, f"The gallery's {entry['name']}", list(entry["expected"]))
    for example in examples["examples"]:
        name = "example" + "".join(part.capitalize() for part in example["id"].split("-"))
        sources[name] = write_test(server, example_program(example), name, example["title"])
    for name, text, title in lesson_programs():
        sources[name] = write_test(server, text, name, title)
    # The proof that a test can fail: the throttle entry's test with one expected value changed.
    right = sources["galleryThrottle"]
    wrong = right.replace('values: ["b": "b", "d": "d"]', 'values: ["b": "b", "d": "x"]').replace("func galleryThrottle(", "func wrongExpectation(")
    assert wrong != right.replace("func galleryThrottle(", "func wrongExpectation("), "the expectation to break is where it was"
    (PACKAGE / "Tests/MarbleTests").mkdir(parents=True, exist_ok=True)
    for old in (PACKAGE / "Tests/MarbleTests").glob("*.swift"):
        old.unlink()
    (PACKAGE / "Package.swift").write_text(MANIFEST)
    for name, source in {**sources, "wrongExpectation": wrong}.items():
        (PACKAGE / f"Tests/MarbleTests/{name}.swift").write_text(source)

    passing = swift_test("--skip", "wrongExpectation")
    assert passing.returncode == 0, passing.stdout[-6000:] + passing.stderr[-3000:]
    assert "warning:" not in "\n".join(line for line in (passing.stdout + passing.stderr).splitlines() if "/.build/checkouts/" not in line)
    ran = re.search(r"Test run with (\d+) tests", passing.stdout + passing.stderr)
    assert ran and int(ran.group(1)) == len(sources), passing.stdout[-2000:]
    failing = swift_test("--filter", "wrongExpectation")
    assert failing.returncode != 0, "a test whose expected output is wrong must fail"
    assert "wrongExpectation" in failing.stdout + failing.stderr


def test_the_page_copies_an_entry_and_a_program_as_a_test(browser, server):
    """In Chromium, by keyboard: "Copy as a test" on a gallery entry shows the test the server writes
    for the entry's program (and tries the clipboard); in the editor, a program's; axe clean."""
    from selenium_axe_python import Axe

    browser.set_window_size(1280, 900)
    browser.get("about:blank")
    browser.get_log("browser")
    browser.get(f"{server.url}/#gallery/switchToLatest")
    button = browser.find_element(By.ID, "gallery-copy-test")
    wait(browser, lambda: button.is_displayed())
    button.send_keys(Keys.ENTER)
    shown = browser.find_element(By.ID, "gallery-test")
    wait(browser, lambda: shown.is_displayed() and "@Test func switchToLatest() throws" in shown.text)
    entry = next(item for item in ENTRIES if item["id"] == "switchToLatest")
    expected = write_test(server, entry_program(entry), "switchToLatest", "The gallery's switchToLatest", ["out"])
    assert [line.rstrip() for line in shown.text.strip().splitlines()] == [line.rstrip() for line in expected.strip().splitlines()], \
        "the page shows the test of its own program"
    assert browser.find_element(By.ID, "gallery-test-status").text.startswith("The test is")
    axe = Axe(browser)
    axe.inject()
    serious = [v for v in axe.run()["violations"] if v["impact"] in ("serious", "critical")]
    assert not serious, [(v["id"], v["help"]) for v in serious]
    browser.save_screenshot(str(ARTIFACTS / "gallery-copy-as-test-1280px.png"))

    browser.execute_script("location.hash = 'edit'")
    editor = browser.find_element(By.ID, "program")
    wait(browser, lambda: editor.is_displayed())
    editor.clear()
    editor.send_keys('a = marbles("-1-2-3|")\nout = a.map { $0 * 10 }')
    browser.find_element(By.ID, "copy-test").send_keys(Keys.ENTER)
    source = browser.find_element(By.ID, "copy-test-source")
    wait(browser, lambda: source.is_displayed() and "@Test func program() throws" in source.text)
    assert '"a": 10, "b": 20, "c": 30' in source.text
    editor.send_keys("\nbroken = nothing(1)")
    browser.find_element(By.ID, "copy-test").send_keys(Keys.ENTER)
    status = browser.find_element(By.ID, "copy-test-status")
    wait(browser, lambda: status.text.startswith("This program cannot run"))
    # The one error logged is the refused program's 400, which the page explains.
    errors = [entry for entry in browser.get_log("browser") if entry["level"] in ("SEVERE", "ERROR")]
    assert all("/api/marbles/test" in entry["message"] for entry in errors), errors
