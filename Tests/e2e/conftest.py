"""Fixtures for the end-to-end tests: a real `playground` process on a free loopback port."""
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Screenshots and other artifacts of the browser tests (ignored by git).
ARTIFACTS = ROOT / "test-artifacts"


def pytest_addoption(parser):
    parser.addoption("--playground", default=str(ROOT / ".build/debug/playground"),
                     help="path to the playground executable under test")


class Server:
    """A running playground: its process, base URL and collected log."""

    def __init__(self, executable, *args, preexec_fn=None):
        self.process = subprocess.Popen(
            [executable, "--port", "0", "--public", str(ROOT / "Public"),
             # Links in memory, unless a test names a database: no test writes the repository's .data/.
             *([] if any(str(arg).startswith("--database") for arg in args) else ["--database", "sqlite::memory:"]), *args],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, preexec_fn=preexec_fn)
        self.log = []
        deadline = time.monotonic() + 20
        self.url = None
        while self.url is None:
            line = self.process.stderr.readline()
            if not line:
                raise RuntimeError("playground exited early:\n" + "".join(self.log))
            self.log.append(line)
            match = re.search(r"serving (http://127\.0\.0\.1:\d+)/", line)
            if match:
                self.url = match.group(1)
            if time.monotonic() > deadline:
                raise RuntimeError("playground did not report its URL:\n" + "".join(self.log))
        self.port = int(self.url.rsplit(":", 1)[1])
        # Keep reading the log, or a full pipe would block the server's logging (and the server).
        self.reader = threading.Thread(target=self._drain_log, daemon=True)
        self.reader.start()

    def _drain_log(self):
        for line in self.process.stderr:
            self.log.append(line)

    def get(self, path, headers=None):
        return self.request("GET", path, headers=headers)

    def request(self, method, path, body=None, headers=None):
        """Returns (status, headers, body bytes); error statuses are returned, not raised."""
        data = body.encode() if isinstance(body, str) else body
        request = urllib.request.Request(self.url + path, data=data, method=method, headers=headers or {})
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                return response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    def json(self, method, path, body=None, headers=None):
        status, _, data = self.request(method, path, body, headers)
        return status, (json.loads(data) if data else None)

    def new_session(self, scenario):
        status, body = self.json("POST", f"/api/scenarios/{scenario}/sessions")
        assert status == 201, body
        return body["session"]

    def send(self, session, name, value="", content_type=None):
        headers = {"Content-Type": content_type} if content_type else {}
        status, body = self.json("POST", f"/api/sessions/{session}/inputs/{name}", value, headers)
        assert status == 202, body

    def watch(self, path, last_event_id=None, headers=None):
        return SSEClient(self.port, path, last_event_id, headers)


    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.reader.join(timeout=5)


class SSEClient:
    """Reads a Server-Sent-Event stream over a plain socket, event by event."""

    def __init__(self, port, path, last_event_id=None, headers=None):
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=5)
        extra = f"Last-Event-ID: {last_event_id}\r\n" if last_event_id is not None else ""
        extra += "".join(f"{name}: {value}\r\n" for name, value in (headers or {}).items())
        self.socket.sendall(f"GET {path} HTTP/1.1\r\nHost: localhost\r\n{extra}\r\n".encode())
        self.buffer = b""
        self.events = []
        while b"\r\n\r\n" not in self.buffer:
            self._receive(time.monotonic() + 5)
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        self.status = int(head.split()[1])
        self.body = b""

    def _receive(self, deadline):
        self.socket.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            chunk = self.socket.recv(65536)
        except socket.timeout:
            return False
        if not chunk:
            raise EOFError("the server closed the stream")
        self.buffer += chunk
        return True

    def _parse(self):
        # Undo chunked transfer encoding, then split events on blank lines.
        while True:
            line_end = self.buffer.find(b"\r\n")
            if line_end < 0:
                return
            size = int(self.buffer[:line_end].split(b";")[0], 16)
            if size == 0:
                raise EOFError("the stream ended (final chunk)")
            if len(self.buffer) < line_end + 2 + size + 2:
                return
            self.body += self.buffer[line_end + 2:line_end + 2 + size]
            self.buffer = self.buffer[line_end + 2 + size + 2:]
            while b"\n\n" in self.body:
                block, self.body = self.body.split(b"\n\n", 1)
                event = {}
                for line in block.decode().split("\n"):
                    name, _, value = line.partition(": ")
                    if name in ("id", "event", "data", "retry"):
                        event[name] = value
                if "data" in event:
                    event["json"] = json.loads(event["data"])
                    self.events.append(event)

    def wait_for(self, predicate, timeout=5.0):
        """Reads until `predicate(events)` holds; returns the events. Fails on timeout."""
        deadline = time.monotonic() + timeout
        try:
            # Parse first: what arrived with the response head (or an earlier read) may already do.
            self._parse()
            while not predicate(self.events):
                if time.monotonic() > deadline:
                    raise AssertionError(f"timed out; events so far: {[(e.get('id'), e.get('event'), e.get('data')) for e in self.events]}")
                self._receive(deadline)
                self._parse()
        except EOFError:
            # The stream ended: what it sent before its end may be what was waited for.
            if not predicate(self.events):
                raise
        return self.events

    def values(self, stream):
        return [e["json"].get("value") for e in self.events if e.get("event") == stream and e["json"].get("kind") == "next"]

    def close(self):
        self.socket.close()


# Short, real-time intervals for end-to-end runs (the defaults are the original examples': 0.5 s and 1 s).
FAST = ["--ticker-interval-ms", "100", "--throttle-ms", "150", "--service-latency-ms", "200"]


def start_server(request, *args):
    executable = request.config.getoption("--playground")
    if not os.access(executable, os.X_OK):
        pytest.fail(f"no playground executable at {executable}; build it first")
    return Server(executable, *args)


@pytest.fixture
def playground(request):
    server = start_server(request, *FAST)
    yield server
    server.stop()


@pytest.fixture
def make_playground(request):
    """Starts playgrounds with extra flags; all are stopped after the test."""
    servers = []

    def make(*args, fast=True):
        server = start_server(request, *(FAST if fast else []), *args)
        servers.append(server)
        return server

    yield make
    for server in servers:
        server.stop()


def new_browser():
    """Headless Chromium through Debian's chromedriver (no driver download: SE_OFFLINE), a
    browser context of its own: no storage, no cookies."""
    os.environ["SE_OFFLINE"] = "true"
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,900"):
        options.add_argument(argument)
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver")
    ARTIFACTS.mkdir(exist_ok=True)
    return webdriver.Chrome(options=options, service=service)


@pytest.fixture(scope="session")
def browser():
    driver = new_browser()
    yield driver
    driver.quit()


@pytest.fixture(autouse=True)
def leave_the_page(request):
    """After a browser test, leave its page, so that its event stream does not go on reconnecting to
    a server that the next test has stopped (and log errors into that test's console)."""
    yield
    if "browser" in request.fixturenames:
        driver = request.getfixturevalue("browser")
        driver.get("about:blank")
        driver.get_log("browser")
