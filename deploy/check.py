"""Drives deploy/compose.yaml through nginx (deploy/check.sh runs it): 30 sessions of every
scenario, each driven and watched; their spread over the instances; a watcher that reconnects with
Last-Event-ID and loses nothing; rooms opened, joined by code and answered, each on its instance;
one instance stopped, whose sessions alone end (with the `end` event) while the others carry on;
and new sessions that still succeed. Standard library only.
Prints what it saw, and a JSON summary last; exits 1 at the first check that fails."""
import argparse
import collections
import http.client
import json
import socket
import subprocess
import sys
import threading
import time


class Watcher:
    """One event stream through the proxy, read on a thread of its own."""

    def __init__(self, host, port, session, last_event_id=None):
        self.session = session
        self.events = []
        self.ended = threading.Event()
        self.lock = threading.Lock()
        self.connection = http.client.HTTPConnection(host, port, timeout=60)
        headers = {"Accept": "text/event-stream"}
        if last_event_id is not None:
            headers["Last-Event-ID"] = str(last_event_id)
        self.connection.request("GET", f"/api/sessions/{session}/events", headers=headers)
        self.response = self.connection.getresponse()
        if self.response.status != 200:
            raise RuntimeError(f"watching {session}: HTTP {self.response.status} {self.response.read()[:200]!r}")
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        event = {}
        try:
            for raw in self.response:
                line = raw.decode().rstrip("\r\n")
                if not line:
                    if "data" in event:
                        with self.lock:
                            self.events.append(event)
                    event = {}
                    continue
                name, _, value = line.partition(": ")
                if name in ("id", "event", "data"):
                    event[name] = value
        except Exception:  # noqa: BLE001 — the stream ended, or close() pulled it from under the read
            pass
        self.ended.set()

    def snapshot(self):
        with self.lock:
            return list(self.events)

    def wait_for(self, predicate, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if predicate(self.snapshot()):
                return True
            time.sleep(0.05)
        return predicate(self.snapshot())

    def close(self):
        # Shut the socket down first: closing the response while its thread is blocked reading
        # waits for the reader's lock — until the stream's next event or keep-alive, up to 15 s.
        try:
            self.connection.sock.shutdown(socket.SHUT_RDWR)
        except (AttributeError, OSError):
            pass  # never connected, or closed already
        self.connection.close()


def request(host, port, method, path, body=None, headers=None):
    connection = http.client.HTTPConnection(host, port, timeout=30)
    connection.request(method, path, body=body, headers=headers or {})
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, data


def sample_value(declaration):
    """A value of the input's kind, as its body."""
    kind = declaration.get("kind")
    if kind == "number":
        return "3"
    if kind == "bool":
        return "true"
    if kind == "action":
        return ""
    if kind == "choice":
        return declaration["options"][-1]
    return "swift"


def fail(message):
    print(f"FAILED: {message}", flush=True)
    sys.exit(1)


PREFIXES = {"A": "blue", "G": "green", "R": "red"}  # each instance's --room-code-prefix (compose.yaml)


def check_rooms(host, port, summary):
    """Rooms opened through nginx land on any instance; joining by code (its first character names
    the instance), the teacher's input, a question and an answer all reach the one holding it."""
    placed = collections.Counter()
    for index in range(6):
        status, body = request(host, port, "POST", "/api/rooms", json.dumps({"from": {"lesson": "reading-marbles"}}),
                               {"Content-Type": "application/json"})
        if status != 201:
            fail(f"opening a room through nginx: {status} {body[:200]!r}")
        room = json.loads(body)
        instance = room["room"].split(".")[0]
        if PREFIXES.get(room["code"][0]) != instance:
            fail(f"room {room['room']} has the code {room['code']}, not its instance's prefix")
        teacher = {"Authorization": f"Bearer {room['teacherKey']}", "Content-Type": "application/json"}
        status, body = request(host, port, "POST", f"/api/join/{room['code'].lower()}", json.dumps({"name": f"Learner {index}"}),
                               {"Content-Type": "application/json"})
        if status != 201:
            fail(f"joining {room['code']} through nginx: {status} {body[:200]!r}")
        student = {"Authorization": f"Bearer {json.loads(body)['studentKey']}", "Content-Type": "application/json"}
        status, _ = request(host, port, "POST", f"/api/rooms/{room['room']}/inputs/advance", "100", teacher)
        status, body = request(host, port, "POST", f"/api/rooms/{room['room']}/questions", json.dumps({"stream": "out", "frames": 8}), teacher)
        if status != 201 or json.loads(body)["question"]["truth"] != "---b-c|":
            fail(f"asking in {room['room']} through nginx: {status} {body[:200]!r}")
        status, body = request(host, port, "POST", f"/api/rooms/{room['room']}/answers", json.dumps({"question": 1, "marbles": "---b-c|"}), student)
        if status != 200:
            fail(f"answering in {room['room']} through nginx: {status} {body[:200]!r}")
        placed[instance] += 1
    status, body = request(host, port, "POST", "/api/join/ZZZZZZ", json.dumps({"name": "Ada"}), {"Content-Type": "application/json"})
    if status != 404:
        fail(f"a join code of no instance through nginx: {status} {body[:200]!r}")
    print(f"6 rooms through nginx, joined, asked and answered, by instance: {dict(sorted(placed.items()))}", flush=True)
    summary["rooms_by_instance"] = dict(sorted(placed.items()))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--sessions", type=int, default=30)
    parser.add_argument("--stop", required=True, help="the command that stops one instance (gets SIGTERM)")
    parser.add_argument("--stopped", required=True, help="the id of the instance --stop stops")
    args = parser.parse_args()
    host, port = args.host, args.port
    summary = {}

    for path, kind in (("/", "text/html"), ("/app.js", "text/javascript"), ("/openapi.json", "application/json")):
        connection = http.client.HTTPConnection(host, port, timeout=30)
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        connection.close()
        if response.status != 200 or not (response.getheader("Content-Type") or "").startswith(kind):
            fail(f"GET {path} through nginx: {response.status} {response.getheader('Content-Type')}")
    print("the page through nginx: /, /app.js and /openapi.json answer 200 with their types", flush=True)

    status, body = request(host, port, "GET", "/api/scenarios")
    if status != 200:
        fail(f"GET /api/scenarios through nginx: {status}")
    scenarios = json.loads(body)["scenarios"]
    print(f"catalogue through nginx: {len(scenarios)} scenarios", flush=True)
    check_rooms(host, port, summary)

    # 1. Sessions of every scenario, spread over the instances, each watched and driven.
    sessions = []
    for index in range(args.sessions):
        scenario = scenarios[index % len(scenarios)]
        status, body = request(host, port, "POST", f"/api/scenarios/{scenario['id']}/sessions")
        if status != 201:
            fail(f"creating a {scenario['id']} session: {status} {body[:200]!r}")
        sessions.append((json.loads(body)["session"], scenario))
    by_instance = collections.Counter(session.split(".", 1)[0] for session, _ in sessions)
    print(f"{len(sessions)} sessions by instance: {dict(sorted(by_instance.items()))}", flush=True)
    summary["sessions_by_instance"] = dict(sorted(by_instance.items()))
    if len(by_instance) < 3:
        fail("the sessions were not spread over the three instances")

    watchers = {session: Watcher(host, port, session) for session, _ in sessions}

    def drive(session, scenario, round_number):
        """Sends one input; returns the input's name, whose `input:NAME` event the watcher should see."""
        if not scenario["inputs"]:
            return None  # the ticker: it sends by itself
        declaration = scenario["inputs"][round_number % len(scenario["inputs"])]
        status, body = request(host, port, "POST", f"/api/sessions/{session}/inputs/{declaration['name']}",
                               body=sample_value(declaration).encode(), headers={"Content-Type": "text/plain"})
        if status != 202:
            fail(f"input {declaration['name']} to {session}: {status} {body[:200]!r}")
        return declaration["name"]

    def sees_activity(watcher, input_name, after):
        if input_name is None:
            return lambda events: len(events) > after
        return lambda events: sum(1 for e in events if e.get("event") == f"input:{input_name}") > after

    for session, scenario in sessions:
        watcher = watchers[session]
        name = drive(session, scenario, 0)
        if not watcher.wait_for(sees_activity(watcher, name, 0), timeout=10):
            fail(f"{session} ({scenario['id']}): no event for its input through nginx")
    print(f"all {len(sessions)} sessions driven and watched through nginx", flush=True)

    # 2. A watcher reconnects with Last-Event-ID and loses nothing.
    ticker = next(session for session, scenario in sessions if scenario["id"] == "ticker")
    first = watchers[ticker]
    first.wait_for(lambda events: len(events) >= 3, timeout=10)
    last_id = int(first.snapshot()[-1]["id"])
    first.close()
    time.sleep(1.5)  # the ticker goes on while nobody watches
    resumed = Watcher(host, port, ticker, last_event_id=last_id)
    watchers[ticker] = resumed
    if not resumed.wait_for(lambda events: len(events) >= 3, timeout=10):
        fail("the reconnected watcher got nothing")
    ids = [int(e["id"]) for e in resumed.snapshot() if "id" in e]
    if ids[0] != last_id + 1 or ids != list(range(ids[0], ids[0] + len(ids))):
        fail(f"after Last-Event-ID {last_id} the events were {ids[:10]}…: some were lost")
    print(f"reconnected with Last-Event-ID {last_id}: events {ids[0]}…{ids[-1]} in order, none lost", flush=True)
    summary["reconnect"] = {"last_event_id": last_id, "resumed_from": ids[0], "gap": 0}

    # 3. One instance stops (SIGTERM): its sessions end with `end`, the others carry on.
    doomed = [session for session, _ in sessions if session.startswith(args.stopped + ".")]
    others = [(session, scenario) for session, scenario in sessions if not session.startswith(args.stopped + ".")]
    counts_before = {session: len(watchers[session].snapshot()) for session, _ in others}
    stopping = subprocess.Popen(args.stop, shell=True)
    stop_started = time.monotonic()
    time.sleep(1.5)  # for the SIGTERM to reach the instance (the drain lasts 5 s)
    # While it drains: not ready, refuses new sessions, and nginx sends new sessions elsewhere.
    created_during = []
    for _ in range(6):
        status, body = request(host, port, "POST", "/api/scenarios/ticker/sessions")
        if status != 201:
            fail(f"creating a session while {args.stopped} drains: {status} {body[:200]!r}")
        created_during.append(json.loads(body)["session"])
        time.sleep(0.2)
    if any(session.startswith(args.stopped + ".") for session in created_during):
        fail(f"a new session was made on the draining instance: {created_during}")
    print(f"while {args.stopped} drained: 6 new sessions, on {sorted({s.split('.')[0] for s in created_during})}", flush=True)
    for session in doomed:
        watcher = watchers[session]
        if not watcher.wait_for(lambda events: any(e.get("event") == "end" for e in events), timeout=30):
            fail(f"{session} on the stopped instance got no end event")
        end = [e for e in watcher.snapshot() if e.get("event") == "end"][-1]
        if json.loads(end["data"]) != {"reason": "draining"}:
            fail(f"{session}'s end event said {end['data']}")
    ended_after = time.monotonic() - stop_started
    if stopping.wait(timeout=60) != 0:
        fail(f"'{args.stop}' failed")
    print(f"{len(doomed)} sessions of {args.stopped} ended with event: end {{\"reason\": \"draining\"}} "
          f"({ended_after:.1f} s after SIGTERM)", flush=True)
    for session, scenario in others:
        watcher = watchers[session]
        if any(e.get("event") == "end" for e in watcher.snapshot()) or watcher.ended.is_set():
            fail(f"{session} on another instance ended too")
        seen = watcher.snapshot()
        name = drive(session, scenario, 1)
        if name:
            activity = sees_activity(watcher, name, sum(1 for e in seen if e.get("event") == f"input:{name}"))
        else:
            activity = sees_activity(watcher, None, counts_before[session])
        if not watcher.wait_for(activity, timeout=10):
            fail(f"{session} ({scenario['id']}) on another instance stopped answering; last events {watcher.snapshot()[-3:]}")
    print(f"the {len(others)} sessions of the other instances carried on, untouched", flush=True)
    status, body = request(host, port, "GET", f"/api/sessions/{doomed[0]}")
    summary["stopped_instance_session_status"] = status
    print(f"a request for an ended session of {args.stopped} through nginx: {status} {body[:120]!r}", flush=True)

    # 4. New sessions still succeed, on the instances left.
    created_after = []
    for _ in range(6):
        status, body = request(host, port, "POST", "/api/scenarios/search/sessions")
        if status != 201:
            fail(f"creating a session after {args.stopped} stopped: {status} {body[:200]!r}")
        created_after.append(json.loads(body)["session"].split(".")[0])
    print(f"6 new sessions after the stop, by instance: {dict(collections.Counter(created_after))}", flush=True)
    summary.update({
        "stopped": args.stopped,
        "stopped_sessions_ended": len(doomed),
        "other_sessions_untouched": len(others),
        "seconds_from_sigterm_to_end": round(ended_after, 1),
        "new_sessions_during_drain": dict(collections.Counter(s.split(".")[0] for s in created_during)),
        "new_sessions_after_stop": dict(collections.Counter(created_after)),
    })
    for watcher in watchers.values():
        watcher.close()
    print(json.dumps(summary, sort_keys=True), flush=True)


if __name__ == "__main__":
    main()
