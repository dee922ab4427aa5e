#!/usr/bin/env python3
"""Server load benchmark: SSE fan-out latency and loss, and held streams' memory.

Modes (traffic goes to 127.0.0.1 only; every loop is bounded in count and time):
  fanout  N watchers of one stream; M inputs at R per second, each a unique token the server
          echoes; reports received vs expected, loss, latency p50/p90/p99/max from POST to event,
          and CPU used by the server and by other processes.
  hold    N streams held for T seconds; server RSS per stream; a final event every stream must get.

Targets:
  playground  a search session: tokens are posted to its `query` input and come back on `validQuery`
              (or a session of the program in --program, which has the same input and stream)
  echo        microhttp-echo, the Node peer or the C floor (floor/sse-floor.c): GET /events, POST
              /publish echoes the body as data

Standard library only, so it runs from the README's virtual environment or any Python 3.11.
"""
import argparse
import asyncio
import json
import os
import statistics
import sys
import time


class ChunkedSSE:
    """Incrementally undoes chunked transfer encoding and splits Server-Sent Events."""

    def __init__(self):
        self.raw = b""
        self.body = b""
        self.ended = False

    def feed(self, data):
        self.raw += data
        events = []
        while True:
            end = self.raw.find(b"\r\n")
            if end < 0:
                break
            size = int(self.raw[:end].split(b";")[0] or b"0", 16)
            if size == 0:
                self.ended = True
                break
            if len(self.raw) < end + 2 + size + 2:
                break
            self.body += self.raw[end + 2:end + 2 + size]
            self.raw = self.raw[end + 2 + size + 2:]
        while b"\n\n" in self.body:
            block, self.body = self.body.split(b"\n\n", 1)
            fields = {}
            for line in block.split(b"\n"):
                name, _, value = line.partition(b": ")
                fields[name] = value
            if b"data" in fields:
                events.append(fields)
        return events


async def http_request(host, port, method, path, body=b"", headers=None):
    reader, writer = await asyncio.open_connection(host, port)
    head = f"{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Length: {len(body)}\r\n"
    for name, value in (headers or {}).items():
        head += f"{name}: {value}\r\n"
    writer.write(head.encode() + b"\r\n" + body)
    await writer.drain()
    data = await asyncio.wait_for(reader.read(), 10)
    writer.close()
    status = int(data.split(b" ", 2)[1])
    return status, data.split(b"\r\n\r\n", 1)[1]


class Poster:
    """Sends inputs over one kept-alive connection, one at a time, in order."""

    def __init__(self, host, port):
        self.host, self.port = host, port
        self.reader = self.writer = None

    async def post(self, path, body, content_type="text/plain", headers=None):
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        extra = "".join(f"{name}: {value}\r\n" for name, value in (headers or {}).items())
        self.writer.write(f"POST {path} HTTP/1.1\r\nHost: {self.host}\r\nContent-Type: {content_type}\r\n"
                          f"Content-Length: {len(body)}\r\n{extra}\r\n".encode() + body)
        await self.writer.drain()
        head = await self.reader.readuntil(b"\r\n\r\n")
        length = 0
        for line in head.split(b"\r\n"):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        await self.reader.readexactly(length)
        return int(head.split(b" ", 2)[1])


class Watcher:
    def __init__(self):
        self.received = {}
        self.connected = asyncio.Event()
        self.ended = False

    async def run(self, host, port, path, token_of, stop, headers=None):
        reader, writer = await asyncio.open_connection(host, port)
        # As EventSource asks (MicroHTTP gives such streams a smaller connection memory).
        extra = "".join(f"{name}: {value}\r\n" for name, value in (headers or {}).items())
        writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n{extra}\r\n".encode())
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        if b" 200 " not in head.split(b"\r\n")[0]:
            raise RuntimeError(f"watcher got {head[:60]!r}")
        self.connected.set()
        parser = ChunkedSSE()
        try:
            while not stop.is_set() and not parser.ended:
                data = await reader.read(65536)
                if not data:
                    break
                now = time.monotonic_ns()
                for event in parser.feed(data):
                    token = token_of(event)
                    if token is not None and token not in self.received:
                        self.received[token] = now
        finally:
            self.ended = parser.ended
            writer.close()


class CPUMeter:
    """CPU seconds used by the server process and by everything else but this process."""

    def __init__(self, server_pid):
        self.server_pid = server_pid
        self.start = self.sample()

    @staticmethod
    def _process_ticks(pid):
        try:
            fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
            return int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            return 0

    def sample(self):
        busy = sum(int(v) for i, v in enumerate(open("/proc/stat").readline().split()[1:]) if i not in (3, 4))
        return time.monotonic(), busy, self._process_ticks(self.server_pid), self._process_ticks(os.getpid())

    def report(self):
        end = self.sample()
        hz = os.sysconf("SC_CLK_TCK")
        seconds = end[0] - self.start[0]
        server = (end[2] - self.start[2]) / hz
        me = (end[3] - self.start[3]) / hz
        others = max(0.0, (end[1] - self.start[1]) / hz - server - me)
        return {"seconds": round(seconds, 2), "server_cpu_s": round(server, 3), "others_cpu_share_of_core": round(others / seconds, 3)}


def rss_kib(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def percentile(values, p):
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


async def target_paths(host, port, args):
    """Where the target's events are watched and its tokens posted, and how a token is read back
    from an event: on the playground, a new search session (or a session of --program), whose
    `validQuery` echoes each query; on an echo server, `/events` and `/publish`."""
    if args.target != "playground":
        return "/events", "/publish", lambda event: event[b"data"].decode()
    if args.program:
        # A program with the search scenario's `query` input and `validQuery` stream.
        with open(args.program, "rb") as file:
            status, body = await http_request(host, port, "POST", "/api/pipelines", file.read(),
                                              {"Content-Type": "text/plain"})
    else:
        status, body = await http_request(host, port, "POST", "/api/scenarios/search/sessions")
    assert status == 201, body
    session = json.loads(body)["session"]

    def token_of(event):
        if event.get(b"event") != b"validQuery":
            return None
        return json.loads(event[b"data"]).get("value")
    return f"/api/sessions/{session}/events", f"/api/sessions/{session}/inputs/query", token_of


async def fanout(args):
    host, port = "127.0.0.1", args.port
    events_path, post_path, token_of = await target_paths(host, port, args)
    stop = asyncio.Event()
    watchers = [Watcher() for _ in range(args.watchers)]
    tasks = []
    for index, watcher in enumerate(watchers):
        tasks.append(asyncio.create_task(watcher.run(host, port, events_path, token_of, stop)))
        if index % 100 == 99:
            await asyncio.sleep(0)  # let connections complete in batches
    await asyncio.wait_for(asyncio.gather(*(w.connected.wait() for w in watchers)), 30)
    meter = CPUMeter(args.server_pid) if args.server_pid else None
    poster = Poster(host, port)
    sent = {}
    interval = 1 / args.rate
    begin = time.monotonic()
    for index in range(args.inputs):
        token = f"tok{index:06d}x{os.getpid()}"
        target = begin + index * interval
        delay = target - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)  # pacing the load generator, not waiting for a result
        sent[token] = time.monotonic_ns()
        status = await poster.post(post_path, token.encode())
        if status not in (200, 202):
            raise RuntimeError(f"POST answered {status}")
    deadline = time.monotonic() + args.drain
    expected = args.inputs * args.watchers
    while time.monotonic() < deadline and sum(len(w.received) for w in watchers) < expected:
        await asyncio.sleep(0.05)
    stop.set()
    cpu = meter.report() if meter else None
    for task in tasks:
        task.cancel()
    latencies = [(watcher.received[token] - sent[token]) / 1e6
                 for watcher in watchers for token in sent if token in watcher.received]
    received = len(latencies)
    return {
        "mode": "fanout", "target": args.target, "watchers": args.watchers, "inputs": args.inputs, "rate": args.rate,
        "expected": expected, "received": received, "lost": expected - received,
        "latency_ms": {name: round(percentile(latencies, p), 2) if latencies else None
                       for name, p in (("p50", 50), ("p90", 90), ("p99", 99), ("max", 100))},
        "cpu": cpu,
    }


async def post_when_accepted(host, port, path, body, seconds):
    """POSTs `body` on a fresh connection, again while the server answers 503 (a connection limit
    that a stream just closed has not yet made room under), for at most `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        status, _ = await http_request(host, port, "POST", path, body, {"Content-Type": "text/plain"})
        if status != 503 or time.monotonic() > deadline:
            return status
        await asyncio.sleep(0.2)


async def hold(args):
    host, port = "127.0.0.1", args.port
    meter = CPUMeter(args.server_pid)
    before = rss_kib(args.server_pid)
    stop = asyncio.Event()
    watchers = [Watcher() for _ in range(args.streams)]
    # On the playground, an idle search session: the final check is a query, back on `validQuery`.
    events_path, post_path, token_of = await target_paths(host, port, args)
    tasks = []
    for index, watcher in enumerate(watchers):
        tasks.append(asyncio.create_task(watcher.run(host, port, events_path, token_of, stop)))
        if index % 200 == 199:
            await asyncio.sleep(0.01)
    await asyncio.wait_for(asyncio.gather(*(w.connected.wait() for w in watchers)), 120)
    await asyncio.sleep(args.seconds)  # holding the streams open is the measurement
    during = rss_kib(args.server_pid)
    checked = watchers
    if args.target == "playground":
        # The playground takes 10,000 connections by default (--max-connections): the check's POST
        # takes the place of one held stream, closed first.
        tasks[0].cancel()
        checked = watchers[1:]
    status = await post_when_accepted(host, port, post_path, b"final-check", 20)
    if status not in (200, 202, 204):
        raise RuntimeError(f"the final check's POST answered {status}")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and sum("final-check" in w.received for w in checked) < len(checked):
        await asyncio.sleep(0.05)
    got_final = sum("final-check" in w.received for w in checked)
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.sleep(args.settle)  # let the server notice the closed streams and release them
    after = rss_kib(args.server_pid)
    return {"mode": "hold", "streams": args.streams, "seconds": args.seconds, "final_check_received": got_final,
            "final_check_expected": len(checked),
            "rss_kib_before": before, "rss_kib_held": during, "rss_kib_after": after,
            # Against the process's RSS before it ever held a stream when given (a garbage-collected
            # peer reuses heap freed by earlier rounds, which would hide its cost per stream).
            "kib_per_stream": round((during - (args.baseline_kib or before)) / args.streams, 2),
            "after_vs_before": round(after / before, 3) if before else None, "cpu": meter.report()}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["fanout", "hold"])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--target", choices=["playground", "echo"], default="playground")
    parser.add_argument("--server-pid", type=int, help="the server's pid, for CPU and RSS figures")
    parser.add_argument("--program", help="playground: a pipeline program file to run instead of the search "
                        "scenario (it must have the input `query` and the stream `validQuery`)")
    parser.add_argument("--watchers", type=int, default=1)
    parser.add_argument("--inputs", type=int, default=200)
    parser.add_argument("--rate", type=float, default=50.0, help="inputs per second")
    parser.add_argument("--drain", type=float, default=10.0, help="seconds to wait for the last events")
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--baseline-kib", type=int, help="the server's RSS before its first stream (hold)")
    parser.add_argument("--settle", type=float, default=10.0,
                        help="seconds between closing the streams and measuring RSS again (hold)")
    args = parser.parse_args()
    if not 1 <= args.watchers <= 20_000 or not 1 <= args.inputs <= 100_000 or not 0 < args.rate <= 10_000:
        parser.error("watchers 1..20000, inputs 1..100000, rate 0..10000")
    if args.mode == "hold" and not args.server_pid:
        parser.error("hold needs --server-pid")
    import resource
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    result = asyncio.run(fanout(args) if args.mode == "fanout" else hold(args))
    print(json.dumps(result))


if __name__ == "__main__":
    sys.exit(main())
