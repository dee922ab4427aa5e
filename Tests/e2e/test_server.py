"""End-to-end checks of the walking skeleton over loopback, as curl and a browser would see it."""
import json
import signal
import socket
import time

import pytest

from conftest import ARTIFACTS


def raw_get(port, path):
    """Sends the path exactly as written (no client-side normalisation) and returns (status, body)."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as connection:
        connection.sendall(f"GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".encode("latin-1"))
        data = b""
        while chunk := connection.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


def test_page_is_served_as_html(playground):
    status, headers, body = playground.get("/")
    assert status == 200
    assert headers["Content-Type"].startswith("text/html")
    assert b"<!doctype html>" in body.lower()
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert playground.get("/favicon.svg")[0] == 200


def test_healthz_says_ok(playground):
    status, headers, body = playground.get("/healthz")
    assert (status, body) == (200, b"ok")


def test_unknown_path_is_a_json_404(playground):
    status, headers, body = playground.get("/no-such-file")
    assert status == 404
    assert headers["Content-Type"] == "application/json"
    error = json.loads(body)["error"]
    assert error["code"] == "not_found" and error["message"]


@pytest.mark.parametrize("path", [
    "/../Package.swift", "/%2e%2e/Package.swift", "/%2E%2E/%2E%2E/etc/passwd", "/..%2fPackage.swift",
    "/..%2f..%2fetc%2fpasswd", "/..\\Package.swift", "/%5c..%5cPackage.swift", "/index.html%00",
    "/%00../Package.swift", "/.gitignore", "/./../README.md", "//etc/passwd",
])
def test_no_path_escapes_public(playground, path):
    status, body = raw_get(playground.port, path)
    assert status in (400, 403, 404), f"{path} answered {status}"
    assert b"swift-tools-version" not in body and b"root:" not in body and b".build" not in body


def test_ticker_streams_events_as_they_happen(playground):
    watcher = playground.watch("/api/scenarios/ticker/events")
    # The values (a watcher that connected before the pipeline started also sees its
    # subscriptions begin: parity's, then count's and timer's, which they subscribe to).
    values = lambda events: [e for e in events[1:] if e["json"]["kind"] == "next"]
    watcher.wait_for(lambda events: len(values(events)) >= 6)
    assert watcher.events[0]["event"] == "session" and "id" not in watcher.events[0]
    events = values(watcher.events)[:6]
    ids = [int(event["id"]) for event in events]
    assert ids == list(range(ids[0], ids[0] + 6))
    assert [event["event"] for event in events[:3]] == ["timer", "count", "parity"]
    payloads = [event["json"] for event in events]
    assert all(payload["seq"] == int(event["id"]) for payload, event in zip(payloads, events))
    assert [payload["value"] for payload in payloads if payload["stream"] == "count"] == [1, 2]
    assert payloads[0]["kind"] == "next" and payloads[0]["t"] >= 0
    assert payloads[3]["t"] > payloads[0]["t"], "events arrive spread over time, not all at once"
    watcher.close()


def test_unknown_scenario_stream_is_a_json_404(playground):
    status, headers, body = playground.get("/api/scenarios/nope/events")
    assert status == 404
    assert json.loads(body)["error"]["code"] == "unknown_scenario"


def test_sigterm_with_an_open_stream_exits_zero_within_one_second(playground):
    connection = socket.create_connection(("127.0.0.1", playground.port), timeout=5)
    connection.sendall(b"GET /api/scenarios/ticker/events HTTP/1.1\r\nHost: localhost\r\n\r\n")
    assert b"200 OK" in connection.recv(4096)
    started = time.monotonic()
    playground.process.send_signal(signal.SIGTERM)
    status = playground.process.wait(timeout=5)
    elapsed = time.monotonic() - started
    connection.close()
    assert status == 0
    assert elapsed < 1.0, f"shutdown took {elapsed:.3f}s"


def test_page_shows_live_values_in_a_real_browser(browser, playground):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    browser.set_window_size(1280, 900)
    browser.get("about:blank")
    browser.get_log("browser")  # only this page's messages count
    browser.get(playground.url + "/#ticker")

    def count():
        try:
            text = browser.find_element(By.CSS_SELECTOR, 'li.stream[data-stream="count"] output.latest').text
            return int(text) if text.isdigit() else 0
        except Exception:
            return 0

    WebDriverWait(browser, 10).until(lambda driver: count() >= 2)
    first = count()
    WebDriverWait(browser, 10).until(lambda driver: count() > first)  # still live
    assert browser.find_element(By.ID, "connection").text == "Live"
    assert browser.find_elements(By.CSS_SELECTOR, "#log li"), "the event log shows events"
    browser.save_screenshot(str(ARTIFACTS / "ticker-desktop.png"))
    errors = [entry for entry in browser.get_log("browser") if entry["level"] in ("SEVERE", "ERROR")]
    assert not errors, errors


def test_sigterm_with_two_thousand_open_streams_exits_within_one_second(playground):
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 8192)), hard))
    session = playground.new_session("ticker")
    connections = []
    try:
        for _ in range(2000):
            connection = socket.create_connection(("127.0.0.1", playground.port), timeout=10)
            connection.sendall(f"GET /api/sessions/{session}/events HTTP/1.1\r\nHost: localhost\r\n\r\n".encode())
            connections.append(connection)
        for connection in connections:
            assert b"200 OK" in connection.recv(4096)
        status, info = playground.json("GET", f"/api/sessions/{session}")
        assert info["watchers"] == 2000
        started = time.monotonic()
        playground.process.send_signal(signal.SIGTERM)
        status = playground.process.wait(timeout=5)
        elapsed = time.monotonic() - started
    finally:
        for connection in connections:
            connection.close()
    assert status == 0
    assert elapsed < 1.0, f"shutdown with 2,000 streams took {elapsed:.3f}s"


def read_whole_response(connection):
    """Reads one response with a Content-Length from a keep-alive connection; fails if it is closed first."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(65536)
        assert chunk, "the server closed the connection without answering"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:"))
    while len(body) < length:
        body += connection.recv(65536)
    return head


@pytest.mark.parametrize("count", [127, 128, 256])
def test_requests_that_arrive_together_are_answered_at_once(playground, count):
    """libmicrohttpd's own polling thread fetches epoll events 128 at a time and, after exactly 128,
    waited again with the full timeout before handling them: requests on that many connections,
    arriving together, were answered only after the 30 s connection timeout. Made deterministic by
    stopping the server while the requests arrive."""
    request = b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n"
    connections = [socket.create_connection(("127.0.0.1", playground.port), timeout=10) for _ in range(count)]
    try:
        for connection in connections:
            connection.sendall(request)
            assert read_whole_response(connection).startswith(b"HTTP/1.1 200")
        time.sleep(0.2)  # let the loop go idle: the next events then arrive in one batch
        playground.process.send_signal(signal.SIGSTOP)
        try:
            for connection in connections:
                connection.sendall(request)
        finally:
            playground.process.send_signal(signal.SIGCONT)
        started = time.monotonic()
        for connection in connections:
            assert read_whole_response(connection).startswith(b"HTTP/1.1 200")
        elapsed = time.monotonic() - started
    finally:
        for connection in connections:
            connection.close()
    assert elapsed < 2.0, f"{count} requests that arrived together took {elapsed:.2f}s to be answered"
