"""No program takes the server down: values bounded by their size, work by its cost, sessions by
their bytes. The server runs under an address-space limit, so that a runaway allocation fails
inside it instead of eating the machine; every reproducer is answered quickly and cleanly, the
server's resident memory stays near its baseline, and a benign program is answered right after."""
import json
import resource
import sys
import time

import pytest

from conftest import ROOT, FAST, Server

sys.path.insert(0, str(ROOT / "Benchmarks" / "load"))
from hostile_values import BENIGN, HOLDERS, REPRODUCERS  # noqa: E402  (the benchmark's corpus)

ADDRESS_SPACE = 2 * 1024 ** 3
MiB = 1024 * 1024
# The clear errors a hostile program ends with: a value too large, a budget spent, or (a cold
# fan-out) too many live subscriptions.
ENDINGS = ("value_too_large", "budget_exceeded", "too_many_subscriptions")


def limited_server(request, *args):
    executable = request.config.getoption("--playground")

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))

    return Server(executable, *FAST, *args, preexec_fn=limit)


def memory(server, field):
    """VmRSS or VmHWM of the server, in bytes."""
    with open(f"/proc/{server.process.pid}/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    raise AssertionError(f"no {field}")


def benign_answer_within(server, seconds):
    started = time.monotonic()
    status, _, raw = server.request("POST", "/api/marbles", body=BENIGN)
    elapsed = time.monotonic() - started
    assert status == 200, raw[:200]
    assert json.loads(raw)["streams"]["b"]["marbles"] == "-a-b-c|"
    assert elapsed < seconds, f"a benign program waited {elapsed:.2f} s"


def endings(answer):
    return [event["value"]["code"] for stream in answer["streams"].values()
            for event in stream["events"] if event["kind"] == "error"]


# Frames on a session's stream that are not a stream's events (docs/API.md, "Sessions"): their data
# has no `kind`.
RESERVED = ("session", "reset", "end")


def stream_events(events):
    return [e for e in events if e.get("event") not in RESERVED]


def wire_bytes(event):
    """The bytes of an event's frame, as the server sends and counts it (one line of data)."""
    return len(f"id: {event['id']}\nevent: {event['event']}\ndata: {event['data']}\n\n".encode())


@pytest.fixture
def server(request):
    server = limited_server(request, "--marble-runs-per-second", "1000", "--program-runs-per-second", "1000")
    yield server
    server.stop()


@pytest.mark.parametrize("name", REPRODUCERS)
def test_a_hostile_marble_program_is_answered_quickly_and_the_server_carries_on(server, name):
    program = REPRODUCERS[name]
    benign_answer_within(server, 2.5)  # warm: what a first request allocates is the baseline's
    baseline = memory(server, "VmRSS")
    started = time.monotonic()
    status, _, raw = server.request("POST", "/api/marbles", body=program)
    elapsed = time.monotonic() - started
    assert elapsed < 5, f"{name}: answered after {elapsed:.1f} s"
    answer = json.loads(raw)
    if status == 200:
        assert set(ENDINGS) & set(endings(answer)) or answer["truncated"], (name, raw[:300])
    else:
        assert 400 <= status < 500 and answer["error"]["code"], (name, status, raw[:300])
    assert server.process.poll() is None, f"{name} killed the server"
    peak = memory(server, "VmHWM") - baseline
    assert peak <= 128 * MiB, f"{name}: RSS peaked {peak / MiB:.0f} MiB over the baseline"
    benign_answer_within(server, 2.5)


@pytest.mark.parametrize("name", REPRODUCERS)
def test_a_hostile_program_session_ends_its_stream_and_keeps_its_watcher(server, name):
    program = REPRODUCERS[name]
    benign_answer_within(server, 2.5)
    baseline = memory(server, "VmRSS")
    status, body = server.json("POST", "/api/pipelines", program)
    if status != 201:
        assert 400 <= status < 500 and body["error"]["code"], (name, status, body)
        return
    watcher = server.watch(body["events"], last_event_id=0)
    try:
        watcher.wait_for(lambda events: any(
            e["json"]["kind"] == "error" and e["json"]["value"]["code"] in ENDINGS for e in stream_events(events)), timeout=5)
        assert server.process.poll() is None, f"{name} killed the server"
        status, info = server.json("GET", f"/api/sessions/{body['session']}")
        assert status == 200 and info["watchers"] == 1, ("the watcher was cut", info)
    finally:
        watcher.close()
        server.request("DELETE", f"/api/sessions/{body['session']}")
    peak = memory(server, "VmHWM") - baseline
    assert peak <= 128 * MiB, f"{name}: RSS peaked {peak / MiB:.0f} MiB over the baseline"
    benign_answer_within(server, 2.5)


def test_a_value_near_the_limit_reaches_its_watcher_who_stays(request):
    """Values up to the limit are events like any other: no single one outgrows a watcher's queue,
    and a watcher resuming with Last-Event-ID is not cut (it used to hit the same oversized event
    again, and be cut again, for good). A replay takes at most three quarters of the watcher's
    queue (docs/API.md, "Connecting"): the events after N come whole when they fit, else after a
    `reset` (a frame that is not a stream's event), the newest that fit. Each value is two events,
    `x·map`'s and `x`'s, 60 kB each, so which of the two a resume gets depends on how far the
    program is: it runs on a virtual clock, to its end, before anyone resumes."""
    queue = 256 * 1024
    budget = queue // 4 * 3
    server = limited_server(request, "--sse-queue-bytes", str(queue))
    try:
        program = "x = interval(50ms).map { v in \"" + "z" * 60_000 + "\" + \"\\(v)\" }.take(5)\n"
        status, body = server.json("POST", "/api/pipelines?clock=virtual", program)
        assert status == 201, body

        def nexts(events, stream=None):
            return [e for e in stream_events(events)
                    if e["json"]["kind"] == "next" and stream in (None, e["event"])]

        def finished(events):
            # Every subscription made has ended: the program has sent all it will.
            made = {e["json"]["sub"] for e in stream_events(events) if e["json"]["kind"] == "subscribed"}
            ended = {e["json"]["sub"] for e in stream_events(events) if e["json"]["kind"] == "disposed"}
            return len(nexts(events, "x")) == 5 and made and made == ended

        watcher = server.watch(body["events"], last_event_id=0)
        try:
            for tick in range(1, 6):  # one value a step: 120 kB queued, within the watcher's queue
                server.send(body["session"], "advance", "50")
                watcher.wait_for(lambda events: len(nexts(events, "x")) >= tick, timeout=10)
            everything = watcher.wait_for(finished, timeout=5)
        finally:
            watcher.close()
        assert everything == stream_events(everything), "nothing but events from the start"
        assert [int(e["id"]) for e in everything] == list(range(1, len(everything) + 1))
        values = [e["json"]["value"] for e in nexts(everything, "x")]
        assert len(values) == 5 and all(len(v) > 60_000 for v in values)

        def resume(after):
            """The events after `after`, and what a watcher resuming after it gets up to the last of
            them; it must still be watching then."""
            later = [e for e in everything if int(e["id"]) > int(after)]
            resumed = server.watch(body["events"], last_event_id=after)
            try:
                got = resumed.wait_for(lambda events: any(e.get("id") == everything[-1]["id"] for e in events), timeout=5)
                with pytest.raises(AssertionError, match="timed out"):  # not cut: the stream stays open
                    resumed.wait_for(lambda events: False, timeout=0.3)
                return later, got
            finally:
                resumed.close()

        # The newest three values' events fit: a plain replay, every event after N.
        after = nexts(everything)[-4]["id"]
        later, got = resume(after)
        assert sum(map(wire_bytes, later)) <= budget
        assert [e["id"] for e in got] == [e["id"] for e in later]

        # After x's second value, six values' events are more: `reset`, then the newest that fit.
        after = nexts(everything, "x")[1]["id"]
        later, got = resume(after)
        assert sum(map(wire_bytes, later)) > budget
        assert got[0]["event"] == "reset" and "id" not in got[0], got[0]
        assert "more than this stream may queue" in got[0]["json"]["reason"]
        newest = []
        for event in reversed(later):
            if sum(map(wire_bytes, newest + [event])) > budget:
                break
            newest.insert(0, event)
        assert [e["id"] for e in got[1:]] == [e["id"] for e in newest]
        assert nexts(got, "x")[-1]["json"]["value"] == values[-1]
    finally:
        server.stop()


@pytest.mark.parametrize("flags", [["--max-value-bytes", "200000"], ["--max-value-bytes", "100"],
                                   ["--max-value-bytes", "65536", "--sse-queue-bytes", "100000"],
                                   ["--max-heap-bytes", "1000"], ["--event-buffer-bytes", "-1"],
                                   ["--program-event-bytes", "0"], ["--marbles-answer-bytes", "1"]])
def test_limits_that_cannot_hold_are_refused_at_start(request, flags):
    import subprocess
    executable = request.config.getoption("--playground")
    result = subprocess.run([executable, "--port", "0", *flags], capture_output=True, text=True, timeout=10)
    assert result.returncode != 0
    assert flags[0] in result.stderr, result.stderr


def test_an_input_value_over_the_limit_is_refused(request):
    """An input's value is measured as JSON bytes, like any value: 1,000 control characters are
    1,000 characters but 6,002 bytes of JSON."""
    server = limited_server(request, "--max-value-bytes", "4096")
    try:
        status, body = server.json("POST", "/api/pipelines", "input q: text\nx = q.map { $0.count }\n")
        assert status == 201, body
        inputs = f"/api/sessions/{body['session']}/inputs/q"
        status, answer = server.json("POST", inputs, "\u0001" * 1000)
        assert status == 413 and answer["error"]["code"] == "value_too_large", answer
        status, answer = server.json("POST", inputs + "?event=error", "\u0001" * 1000)
        assert status == 413 and answer["error"]["code"] == "value_too_large", answer
        status, _ = server.json("POST", inputs, "w" * 1000)
        assert status == 202
    finally:
        server.stop()


def test_twenty_program_sessions_keeping_the_largest_values_hold_bounded_memory(request):
    """20 sessions from one address, each making the largest values it may as fast as it may and
    keeping them every way the language can (its events, a replay, a delay, a buffer, takeLast, a
    zip's queue): together they hold at most 256 MiB over the baseline — past the heap limit the
    program that sent the most lately is halted — and deleting them gives it back."""
    server = limited_server(request, "--program-runs-per-second", "1000", "--max-sessions-per-client", "20", "--program-threads", "2")
    try:
        benign_answer_within(server, 2.5)
        baseline = memory(server, "VmRSS")
        sessions, refused = [], 0
        for index in range(20):
            # Every 15 ms: as fast as the step budget sustains.
            program = HOLDERS[index % len(HOLDERS)]
            status, body = server.json("POST", "/api/pipelines", program)
            if status == 201:
                sessions.append(body["session"])
            else:
                # Its share used (the address holds its part of what program sessions keep), or
                # the heap short with nobody to blame.
                assert (status, body["error"]["code"]) in ((429, "share_used"), (503, "server_busy")), body
                refused += 1
        assert sessions, "no session was created"
        # They run for a while, filling what they keep at up to 4 MB/s each (without the heap
        # limit, about 550 MiB in 30 s on two busy cores); past the limit, programs are halted.
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and server.process.poll() is None:
            if memory(server, "VmHWM") - baseline > 256 * MiB:
                break
            time.sleep(0.5)
        assert server.process.poll() is None
        held = memory(server, "VmHWM") - baseline
        print(f"{len(sessions)} sessions ({refused} refused) held {held / MiB:.0f} MiB at most")
        assert held <= 256 * MiB, f"{len(sessions)} sessions ({refused} refused) held {held / MiB:.0f} MiB"
        for session in sessions:
            server.request("DELETE", f"/api/sessions/{session}")
        deadline = time.monotonic() + 10
        while memory(server, "VmRSS") - baseline > 32 * MiB and time.monotonic() < deadline:
            time.sleep(0.2)
        left = memory(server, "VmRSS") - baseline
        print(f"{left / MiB:.0f} MiB over the baseline after deleting them")
        assert left <= 32 * MiB, f"{left / MiB:.0f} MiB still held after deleting every session"
        benign_answer_within(server, 2.5)
    finally:
        server.stop()


def test_limits_reached_are_counted_in_the_metrics(server):
    server.request("POST", "/api/marbles", body=REPRODUCERS["nested shared arrays (a3)"])
    server.request("POST", "/api/marbles", body=REPRODUCERS["work, not values"])
    server.request("POST", "/api/marbles", body='a = marbles("-1-2-3-4-5|")\n', headers={})
    server.request("POST", "/api/marbles?until=200", body='a = marbles("-1-2-3-4-5|")\n')
    _, _, raw = server.get("/metrics")
    text = raw.decode()
    for line in ('playground_program_limits_total{reason="value_too_large"} 1',
                 'playground_program_limits_total{reason="budget_exceeded"} 1',
                 'playground_marbles_truncated_total{reason="until"} 1'):
        assert line in text, (line, [l for l in text.splitlines() if l.startswith("playground_")])
