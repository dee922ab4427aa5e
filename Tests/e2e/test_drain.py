"""Several instances behind a proxy, end to end: named instances (`--instance-id`) and their
session ids, 421 for another instance's session, /readyz, and the drain on SIGTERM
(`--drain-seconds`): new sessions refused, live ones served, then an `end` event and exit 0."""
import re
import signal
import time

import pytest

from conftest import FAST, start_server


@pytest.fixture
def draining_instance(request):
    server = start_server(request, *FAST, "--instance-id", "blue-1", "--drain-seconds", "1")
    yield server
    server.stop()


def test_a_named_instance_prefixes_its_session_ids_and_answers_421_for_another_instances(draining_instance, playground):
    session = draining_instance.new_session("ticker")
    assert re.fullmatch(r"blue-1\.[0-9a-f]{32}", session)
    status, answer = playground.json("GET", f"/api/sessions/{session}")
    assert status == 421, "the unnamed instance knows the session is not its own"
    assert answer["error"]["code"] == "misdirected" and answer["error"]["owner"] == "blue-1"
    status, answer = draining_instance.json("GET", f"/api/sessions/green.{'0' * 32}")
    assert status == 421 and answer["error"]["owner"] == "green"
    status, answer = draining_instance.json("GET", f"/api/sessions/{'0' * 32}")
    assert status == 404 and answer["error"]["code"] == "unknown_session"


def test_sigterm_drains_then_ends_every_stream_and_exits_zero(draining_instance):
    server = draining_instance
    session = server.new_session("search")
    watcher = server.watch(f"/api/sessions/{session}/events")

    def inputs(events):
        return [e for e in events if e.get("event") == "input:query"]

    assert server.json("POST", f"/api/sessions/{session}/inputs/query", "sw", {"Content-Type": "text/plain"})[0] == 202
    watcher.wait_for(lambda events: len(inputs(events)) == 1)
    assert server.get("/readyz")[0] == 200

    signalled = time.monotonic()
    server.process.send_signal(signal.SIGTERM)
    deadline = signalled + 2
    while server.get("/readyz")[0] != 503:
        assert time.monotonic() < deadline, "/readyz never said draining"
        time.sleep(0.02)
    status, answer = server.json("POST", "/api/scenarios/login/sessions")
    assert status == 503 and answer["error"]["code"] == "draining"
    # The live session is still served while the instance drains.
    status, _ = server.json("POST", f"/api/sessions/{session}/inputs/query", "swi", {"Content-Type": "text/plain"})
    assert status == 202
    watcher.wait_for(lambda events: len(inputs(events)) == 2)

    events = watcher.wait_for(lambda events: any(e.get("event") == "end" for e in events), timeout=5)
    ended = time.monotonic() - signalled
    assert events[-1]["event"] == "end" and events[-1]["json"] == {"reason": "draining"}
    assert 0.9 <= ended < 2.5, f"the end came {ended:.2f}s after SIGTERM, with --drain-seconds 1"
    assert server.process.wait(timeout=5) == 0
    watcher.close()


def test_without_a_drain_sigterm_still_ends_streams_with_the_end_event(playground):
    session = playground.new_session("ticker")
    watcher = playground.watch(f"/api/sessions/{session}/events")
    watcher.wait_for(lambda events: any(e.get("event") == "count" for e in events))
    playground.process.send_signal(signal.SIGTERM)
    events = watcher.wait_for(lambda events: any(e.get("event") == "end" for e in events), timeout=3)
    assert events[-1]["json"] == {"reason": "draining"}
    assert playground.process.wait(timeout=5) == 0
    watcher.close()


@pytest.mark.parametrize("flags", [["--instance-id", "Blue"], ["--instance-id", "a" * 33], ["--instance-id", ""],
                                   ["--drain-seconds", "-1"], ["--drain-seconds", "3601"]])
def test_bad_instance_ids_and_drain_times_are_refused_at_start(request, flags):
    import subprocess
    executable = request.config.getoption("--playground")
    result = subprocess.run([executable, "--port", "0", *flags], capture_output=True, text=True, timeout=10)
    assert result.returncode != 0
    assert "--instance-id" in result.stderr or "--drain-seconds" in result.stderr, result.stderr


def test_the_page_says_its_session_ended_because_the_server_was_replaced(browser, draining_instance):
    from selenium.webdriver.common.by import By
    from test_page import ARTIFACTS, check_console, open_scenario, wait

    open_scenario(browser, draining_instance, "ticker")
    assert "session=blue-1." in browser.current_url
    draining_instance.process.send_signal(signal.SIGTERM)
    wait(browser, lambda: browser.find_element(By.ID, "connection").text == "Ended")
    notice = browser.find_element(By.ID, "notice")
    assert notice.is_displayed()
    assert notice.text.startswith("This session ended because its server was replaced — start a new one")
    assert draining_instance.process.wait(timeout=5) == 0
    browser.save_screenshot(str(ARTIFACTS / "session-ended-by-drain.png"))
    check_console(browser)


def test_a_port_in_use_stops_the_service_group_with_a_clear_message(request, playground):
    import subprocess
    executable = request.config.getoption("--playground")
    result = subprocess.run([executable, "--port", str(playground.port)], capture_output=True, text=True, timeout=10)
    assert result.returncode == 1
    assert "could not listen on" in result.stderr and "already in use" in result.stderr, result.stderr
    assert "shutting down" not in result.stderr, "no drain for a server that never started"
