#!/usr/bin/env python3
"""One room with many students on one playground (issue "Teach a class here"), on loopback.

A room of the search scenario is opened and N students join it, each with a key of their own and
the two streams the page holds: the room's session (the diagram) and the room's own snapshots.
Then:
  steps    the teacher drives the room: M inputs at R a second through POST /api/rooms/ID/inputs,
           each a unique token the scenario echoes on `validQuery`; latency from the POST to each
           student's session stream (p50/p99/max) and the events lost;
  ask      the teacher asks a question; latency until every student's room stream has it;
  answers  every student answers within one second (C kept-alive connections, paced); every
           answer must be taken (200), and the time from the last answer taken until the
           teacher's stream shows all N answered is measured, with how many snapshots the teacher
           got meanwhile (at most 4 a second);
and the server's RSS per student (two streams and a place in the room), against its RSS before
the first joined. Prints one JSON object. Standard library only.
"""
import argparse
import asyncio
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from loadtest import ChunkedSSE, CPUMeter, Poster, Watcher, http_request, percentile, rss_kib  # noqa: E402

HOST = "127.0.0.1"


def bearer(key):
    return {"Authorization": f"Bearer {key}"}


class RoomWatcher:
    """A room stream: each `room` snapshot's arrival time, and a test on it."""

    def __init__(self, key):
        self.key = key
        self.connected = asyncio.Event()
        self.snapshots = 0
        self.matched = None  # when `until` first held

    async def run(self, port, room, until, stop):
        reader, writer = await asyncio.open_connection(HOST, port)
        writer.write(f"GET /api/rooms/{room}/events HTTP/1.1\r\nHost: {HOST}\r\nAccept: text/event-stream\r\n"
                     f"Authorization: Bearer {self.key}\r\n\r\n".encode())
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        if b" 200 " not in head.split(b"\r\n")[0]:
            raise RuntimeError(f"room stream got {head[:60]!r}")
        self.connected.set()
        parser = ChunkedSSE()
        try:
            while not stop.is_set() and not parser.ended:
                data = await reader.read(65536)
                if not data:
                    break
                now = time.monotonic_ns()
                for event in parser.feed(data):
                    if event.get(b"event") != b"room":
                        continue
                    self.snapshots += 1
                    if self.matched is None and until(json.loads(event[b"data"])):
                        self.matched = now
        finally:
            writer.close()


async def call(port, method, path, body, headers=None):
    status, answer = await http_request(HOST, port, method, path, json.dumps(body).encode() if body is not None else b"",
                                        {"Content-Type": "application/json", **(headers or {})})
    if status not in (200, 201, 202, 204):
        raise RuntimeError(f"{method} {path} answered {status}: {answer[:200]!r}")
    return json.loads(answer) if answer else None


async def run(args):
    port = args.port
    room = await call(port, "POST", "/api/rooms", {"from": {"scenario": "search"}})
    rid, teacher = room["room"], room["teacherKey"]
    before = rss_kib(args.server_pid)
    stop = asyncio.Event()
    keys = []
    for index in range(args.students):
        joined = await call(port, "POST", f"/api/join/{room['code']}", {"name": f"Learner {index}"})
        keys.append(joined["studentKey"])

    def token_of(event):
        return json.loads(event[b"data"]).get("value") if event.get(b"event") == b"validQuery" else None

    session_watchers = [Watcher() for _ in keys]
    asked = {"id": 1}  # a new room's first question
    room_watchers = [RoomWatcher(key) for key in keys]
    tasks = []
    for index, (watcher, room_watcher) in enumerate(zip(session_watchers, room_watchers)):
        # The room's diagram, through the room with the student's key, as the page watches it.
        tasks.append(asyncio.create_task(watcher.run(HOST, port, f"/api/rooms/{rid}/session/events", token_of, stop,
                                                     bearer(keys[index]))))
        tasks.append(asyncio.create_task(room_watcher.run(
            port, rid, lambda view: (view.get("question") or {}).get("id") == asked["id"], stop)))
        if index % 100 == 99:
            await asyncio.sleep(0)
    await asyncio.wait_for(asyncio.gather(*(w.connected.wait() for w in session_watchers + room_watchers)), 60)
    await asyncio.sleep(1)  # the streams' first snapshots are in: holding them is the measurement
    held = rss_kib(args.server_pid)
    meter = CPUMeter(args.server_pid)

    # The teacher's steps, to every student's diagram.
    poster = Poster(HOST, port)
    sent = {}
    begin = time.monotonic()
    for index in range(args.inputs):
        token = f"tok{index:06d}x{os.getpid()}"
        delay = begin + index / args.rate - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)  # pacing the teacher, not waiting for a result
        sent[token] = time.monotonic_ns()
        status = await poster.post(f"/api/rooms/{rid}/inputs/query", token.encode(), headers=bearer(teacher))
        if status != 202:
            raise RuntimeError(f"the teacher's input answered {status}")
    deadline = time.monotonic() + args.drain
    expected = args.inputs * len(keys)
    while time.monotonic() < deadline and sum(len(w.received) for w in session_watchers) < expected:
        await asyncio.sleep(0.05)
    steps = [(w.received[t] - sent[t]) / 1e6 for w in session_watchers for t in sent if t in w.received]

    # The question, to every student's room stream.
    teacher_watcher = RoomWatcher(teacher)
    everyone = lambda view: (view.get("class") or {}).get("answered") == len(keys)  # noqa: E731
    teacher_task = asyncio.create_task(teacher_watcher.run(port, rid, everyone, stop))
    await teacher_watcher.connected.wait()
    asked_at = time.monotonic_ns()
    question = (await call(port, "POST", f"/api/rooms/{rid}/questions", {"stream": "validQuery", "frames": 10},
                           bearer(teacher)))["question"]
    assert question["id"] == asked["id"], question
    posted_ms = (time.monotonic_ns() - asked_at) / 1e6  # the answer found (the journal replayed) and the POST answered
    deadline = time.monotonic() + args.drain
    while time.monotonic() < deadline and sum(w.matched is not None for w in room_watchers) < len(keys):
        await asyncio.sleep(0.01)
    reached = [(w.matched - asked_at) / 1e6 for w in room_watchers if w.matched is not None]

    # Every student answers within one second, over C connections.
    snapshots_before = teacher_watcher.snapshots
    refused = 0
    last_taken = [0]

    async def answer_from(connection):
        nonlocal refused
        mine = keys[connection::args.connections]
        sender = Poster(HOST, port)
        start = time.monotonic()
        for index, key in enumerate(mine):
            delay = start + index / len(mine) * args.answer_seconds - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            body = json.dumps({"question": question["id"], "marbles": "--a|" if index % 3 else "-a-|"}).encode()
            status = await sender.post(f"/api/rooms/{rid}/answers", body, "application/json", bearer(key))
            if status != 200:
                refused += 1
            last_taken[0] = max(last_taken[0], time.monotonic_ns())
    answers_begin = time.monotonic()
    await asyncio.gather(*(answer_from(c) for c in range(args.connections)))
    answers_took = time.monotonic() - answers_begin
    deadline = time.monotonic() + args.drain
    while time.monotonic() < deadline and teacher_watcher.matched is None:
        await asyncio.sleep(0.005)
    cpu = meter.report()
    stop.set()
    for task in tasks + [teacher_task]:
        task.cancel()
    ms = lambda values: {name: round(percentile(values, p), 2) if values else None  # noqa: E731
                         for name, p in (("p50", 50), ("p99", 99), ("max", 100))}
    return {
        "students": len(keys),
        "kib_per_student": round((held - before) / len(keys), 2),
        "steps": {"inputs": args.inputs, "rate": args.rate, "expected": expected, "lost": expected - len(steps),
                  "latency_ms": ms(steps)},
        "question_reached_ms": ms(reached), "question_missed": len(keys) - len(reached), "question_posted_ms": round(posted_ms, 2),
        "answers": {"sent": len(keys), "refused": refused, "seconds": round(answers_took, 3),
                    "teacher_view_after_last_ms": round((teacher_watcher.matched - last_taken[0]) / 1e6, 2)
                    if teacher_watcher.matched else None,
                    "teacher_snapshots": teacher_watcher.snapshots - snapshots_before},
        "cpu": cpu,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--server-pid", type=int, required=True)
    parser.add_argument("--students", type=int, default=1000)
    parser.add_argument("--inputs", type=int, default=100)
    parser.add_argument("--rate", type=float, default=20.0, help="the teacher's inputs a second")
    parser.add_argument("--connections", type=int, default=50, help="connections the answers come over")
    parser.add_argument("--answer-seconds", type=float, default=1.0, help="the time all answers are spread over")
    parser.add_argument("--drain", type=float, default=10.0, help="seconds to wait for what is awaited")
    args = parser.parse_args()
    if not 1 <= args.students <= 10_000 or not 1 <= args.inputs <= 10_000 or not 0 < args.rate <= 100:
        parser.error("students 1..10000, inputs 1..10000, rate 0..100")
    if not 1 <= args.connections <= args.students:
        parser.error("connections 1..students")
    import resource
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    print(json.dumps(asyncio.run(run(args))))


if __name__ == "__main__":
    sys.exit(main())
