"""A PostgreSQL that stops answering (issue #70): every process of its cluster stopped with
SIGSTOP, as a frozen host or a paused container is, whose kernel still accepts connections and
never answers on them. The links' routes answer 503 `storage_unavailable` with `Retry-After`
within the store's deadline, all together rather than a deadline each, while a scenario session
streams; continued with SIGCONT, links are read and kept again without a restart."""
import json
import os
import pathlib
import re
import signal
import subprocess
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

from conftest import FAST, ROOT, start_server
from test_links import PROGRAM, keep, own_postgres  # noqa: F401 (own_postgres is a fixture, taken by name)

STORE = (ROOT / "Sources/Store/PostgresLinkStore.swift").read_text()
# The store's deadline for a call and its cool-down after one ran out, in seconds, as the store says.
DEADLINE = int(re.search(r"static let callDeadline = Duration\.seconds\((\d+)\)", STORE).group(1))
COOL_DOWN = int(re.search(r"static let coolDown = Duration\.seconds\((\d+)\)", STORE).group(1))
READS = 30
# Clients told apart as behind a trusted proxy, six reads each: fewer than the 8 calls one client
# may have waiting, so that every read reaches the store's queue (a 9th would be 429 `share_used`).
CLIENTS = [f"203.0.113.{n}" for n in range(1, 6)]


def read(server, link_id, client):
    """GET /api/links/{id} as `client`: (status, Retry-After, JSON body, seconds taken). Its own
    timeout is long, so that a read that hangs is measured, not cut short."""
    started = time.monotonic()
    request = urllib.request.Request(f"{server.url}/api/links/{link_id}", headers={"X-Forwarded-For": client})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            status, headers, body = response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        status, headers, body = error.code, error.headers, error.read()
    return status, headers.get("Retry-After"), json.loads(body), time.monotonic() - started


def stop_cluster(url, stopped):
    """SIGSTOPs the postmaster of the cluster at `url` (its pid is the first line of
    DATA/postmaster.pid), then each of its children, adding each pid to `stopped` as it goes."""
    data = subprocess.run(["psql", "-qAtX", url, "-c", "SHOW data_directory"],
                          check=True, capture_output=True, text=True).stdout.strip()
    postmaster = int(pathlib.Path(data, "postmaster.pid").read_text().split()[0])
    os.kill(postmaster, signal.SIGSTOP)
    stopped.append(postmaster)
    # Stopped, the postmaster starts no new child: the list is complete.
    for child in subprocess.run(["pgrep", "-P", str(postmaster)], capture_output=True, text=True).stdout.split():
        os.kill(int(child), signal.SIGSTOP)
        stopped.append(int(child))


def continue_cluster(stopped):
    for pid in reversed(stopped):
        try:
            os.kill(pid, signal.SIGCONT)
        except ProcessLookupError:
            pass


def test_a_stopped_postgresql_answers_503_within_the_deadline_and_links_come_back(request, own_postgres):
    url, _ = own_postgres
    server = start_server(request, "--database", url, "--trust-proxy", *FAST)
    try:
        status, link = keep(server, {"kind": "program", "title": "Before", "content": PROGRAM})
        assert status == 201, link
        assert read(server, link["id"], CLIENTS[0])[0] == 200
        stopped = []
        try:
            stop_cluster(url, stopped)
            started = time.monotonic()
            with ThreadPoolExecutor(READS) as pool:
                reads = [pool.submit(read, server, link["id"], CLIENTS[n % len(CLIENTS)]) for n in range(READS)]
                # Meanwhile the store's wait holds no other route: a session starts and streams.
                session = server.new_session("ticker")
                stream = server.watch(f"/api/sessions/{session}/events")
                stream.wait_for(lambda events: len([e for e in events if e.get("event") == "count"]) >= 2, timeout=10)
                streamed = time.monotonic() - started
                stream.close()
                answers = [future.result() for future in reads]
            answered = time.monotonic() - started
            print(f"\nPostgreSQL stopped: {READS} reads all answered in {answered:.2f} s "
                  f"(the slowest {max(a[3] for a in answers):.2f} s, the fastest {min(a[3] for a in answers):.2f} s; "
                  f"deadline {DEADLINE} s); a session streamed in {streamed:.2f} s meanwhile")
            for status, retry_after, body, _ in answers:
                assert (status, body["error"]["code"]) == (503, "storage_unavailable"), body
                assert retry_after and int(retry_after) > 0, "a 503 says when to try again"
            assert answered < DEADLINE + 3, f"{READS} reads took {answered:.2f} s: each waited a deadline of its own"
            assert streamed < DEADLINE, f"the session waited for the store: {streamed:.2f} s"
        finally:
            continue_cluster(stopped)
        resumed = time.monotonic()
        while (answer := read(server, link["id"], CLIENTS[0]))[0] != 200:
            assert answer[0] == 503 and time.monotonic() - resumed < DEADLINE + COOL_DOWN + 20, answer
            time.sleep(0.1)
        recovered = time.monotonic() - resumed
        print(f"PostgreSQL continued: the link read again after {recovered:.2f} s (cool-down {COOL_DOWN} s)")
        assert answer[2]["content"] == PROGRAM
        status, again = keep(server, {"kind": "program", "title": "After", "content": PROGRAM})
        assert status == 201, again
    finally:
        server.stop()
