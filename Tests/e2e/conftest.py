"""Fixtures for the end-to-end tests: a real `playground` process on a free loopback port."""
import os
import re
import shutil
import signal
import subprocess
import time
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

    def __init__(self, executable, *args):
        self.process = subprocess.Popen(
            [executable, "--port", "0", "--public", str(ROOT / "Public"), *args],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
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

    def get(self, path, headers=None):
        request = urllib.request.Request(self.url + path, headers=headers or {})
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                return response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process.stderr.close()


@pytest.fixture
def playground(request):
    executable = request.config.getoption("--playground")
    if not os.access(executable, os.X_OK):
        pytest.fail(f"no playground executable at {executable}; build it first")
    server = Server(executable, "--ticker-interval-ms", "100")
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser():
    """Headless Chromium through Debian's chromedriver (no driver download: SE_OFFLINE)."""
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
    driver = webdriver.Chrome(options=options, service=service)
    yield driver
    driver.quit()
