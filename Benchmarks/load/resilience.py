#!/usr/bin/env python3
"""Resilience benchmark: what an attacker or a crowd does to a server, measured on loopback.

Modes (traffic goes to 127.0.0.1 only; every loop is bounded in count and time):
  slowloris  N sockets each send an unfinished request head, one byte every --trickle seconds;
             meanwhile /healthz is timed every 100 ms. Reports /healthz p99 and max, and when the
             slow sockets were closed (the server's request deadline).
  vanish     N idle event streams, then every client closes (or resets with --reset) at once.
             Reports how long the server's open-stream gauge took to fall back, and RSS before,
             held, and 3 s after.
  churn      A warm-up round and --rounds rounds of N session create/delete cycles (--scenario).
             Reports RSS after each round and the change from the second round on.
  flood      N event streams opened and closed while --keep watchers stay connected. Reports RSS
             before, at the peak, and 3 s after.
  expire     --cycles sessions created (--scenario) and left to expire while --keep watchers stay
             connected to --path; needs a server started with room for them and a short
             --session-idle-timeout. Reports RSS before, at the peak, and 3 s after the sessions
             gauge is back to its baseline.
  silent     (root only) N idle event streams from a network namespace whose link is then taken
             down: the clients vanish without a packet (no FIN, no RST). Reports how long the
             server took to release them (TCP keep-alive and TCP_USER_TIMEOUT). The server must
             listen on --silent-server-address (e.g. --host 0.0.0.0).
  hold       (used by silent, inside the namespace) opens N streams to --host and waits.

RSS "before" is read after a settling second, so that memory the previous mode freed is counted
as the server returns it, not as the new baseline.

Standard library only. Needs the server's pid for RSS (/proc/PID/status) and /metrics.
"""
import argparse
import asyncio
import json
import multiprocessing
import resource
import socket
import statistics
import struct
import time


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS"):
                return int(line.split()[1])
    return 0


async def request(port, method, path, body=b""):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"{method} {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body)
    await writer.drain()
    data = await asyncio.wait_for(reader.read(), 10)
    writer.close()
    return int(data.split(b" ", 2)[1]), data.split(b"\r\n\r\n", 1)[1]


async def gauge(port, name):
    _, body = await request(port, "GET", "/metrics")
    for line in body.decode().splitlines():
        if line.startswith(name + " "):
            return int(float(line.split()[1]))
    return -1


async def open_stream(port, path, host="127.0.0.1"):
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    await writer.drain()
    await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 20)
    return reader, writer


def probe(port, path, stop, results):
    """Times GET `path` every 100 ms on a fresh connection until `stop` is set; puts the list."""
    times = []
    while not stop.is_set():
        t0 = time.monotonic()
        with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
            connection.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
            answer = b""
            while chunk := connection.recv(65536):
                answer += chunk
        times.append((time.monotonic() - t0) * 1000)
        assert answer.startswith(b"HTTP/1.1 200"), answer[:80]
        time.sleep(0.1)
    results.put(times)


async def slowloris(args):
    closed_after = []
    started = time.monotonic()
    stop = asyncio.Event()

    async def slow_socket():
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", args.port)
        except OSError:
            closed_after.append(0.0)
            return
        opened = time.monotonic()
        writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        while not stop.is_set():
            try:
                writer.write(b"X")
                await writer.drain()
                data = await asyncio.wait_for(reader.read(1), args.trickle)
                if data == b"":
                    closed_after.append(time.monotonic() - opened)
                    return
            except asyncio.TimeoutError:
                continue
            except OSError:
                closed_after.append(time.monotonic() - opened)
                return
        writer.close()

    # The probe runs in a process of its own, with blocking sockets, so that what it times is the
    # server and not this event loop, busy with thousands of slow sockets.
    probe_stop = multiprocessing.Event()
    probe_times = multiprocessing.Queue()
    prober = multiprocessing.Process(target=probe, args=(args.port, args.probe, probe_stop, probe_times))
    prober.start()

    sockets = [asyncio.create_task(slow_socket()) for _ in range(args.sockets)]
    deadline = started + args.seconds
    while time.monotonic() < deadline and len(closed_after) < args.sockets:
        await asyncio.sleep(0.1)
    stop.set()
    probe_stop.set()
    times = probe_times.get(timeout=30)
    prober.join()
    await asyncio.gather(*sockets, return_exceptions=True)
    times.sort()
    return {"mode": "slowloris", "sockets": args.sockets, "closed": len(closed_after),
            "closed_after_s_max": round(max(closed_after, default=0), 2),
            "closed_after_s_median": round(statistics.median(closed_after), 2) if closed_after else None,
            "healthz_ms_p99": round(times[int(len(times) * 0.99) - 1], 2) if times else None,
            "healthz_ms_max": round(times[-1], 2) if times else None, "healthz_probes": len(times)}


async def settled_rss(pid):
    """RSS after a second and a half, time enough for the server's periodic trim of freed memory."""
    await asyncio.sleep(1.5)
    return rss_kib(pid)


async def vanish(args):
    baseline_streams = await gauge(args.port, "microhttp_open_sse_streams")
    before = await settled_rss(args.server_pid)
    streams = []
    for start in range(0, args.streams, 500):
        streams += await asyncio.gather(*[open_stream(args.port, args.path) for _ in range(start, min(args.streams, start + 500))])
    await asyncio.sleep(0.5)
    held = rss_kib(args.server_pid)
    t0 = time.monotonic()
    for _, writer in streams:
        if args.reset:
            writer.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        writer.transport.abort() if args.reset else writer.close()
    released = None
    while time.monotonic() - t0 < 20:
        if await gauge(args.port, "microhttp_open_sse_streams") <= baseline_streams:
            released = time.monotonic() - t0
            break
        await asyncio.sleep(0.05)
    await asyncio.sleep(max(0, 3 - (time.monotonic() - t0)))
    after = rss_kib(args.server_pid)
    return {"mode": "vanish", "how": "reset" if args.reset else "close", "streams": args.streams,
            "released_s": round(released, 3) if released is not None else None,
            "rss_kib_before": before, "rss_kib_held": held, "rss_kib_3s_after": after,
            "after_vs_before": round(after / before, 3)}


async def churn(args):
    rounds = []
    reader, writer = await asyncio.open_connection("127.0.0.1", args.port)

    async def call(method, path):
        writer.write(f"{method} {path} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n".encode())
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        length = 0
        for line in head.split(b"\r\n"):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return await reader.readexactly(length)

    for round_index in range(args.rounds + 1):
        for _ in range(args.cycles):
            body = await call("POST", f"/api/scenarios/{args.scenario}/sessions")
            await call("DELETE", f"/api/sessions/{json.loads(body)['session']}")
        await asyncio.sleep(2.5)
        rounds.append(rss_kib(args.server_pid))
    writer.close()
    second = rounds[1]
    return {"mode": "churn", "scenario": args.scenario, "cycles_per_round": args.cycles, "rss_kib_after_rounds": rounds,
            "last_vs_second_round": round(rounds[-1] / second, 3)}


async def flood(args):
    before = await settled_rss(args.server_pid)
    keep = [await open_stream(args.port, args.path) for _ in range(args.keep)]
    peak = 0
    for start in range(0, args.streams, 1000):
        batch = await asyncio.gather(*[open_stream(args.port, args.path) for _ in range(start, min(args.streams, start + 1000))])
        peak = max(peak, rss_kib(args.server_pid))
        for _, writer in batch:
            writer.close()
    await asyncio.sleep(3)
    after = rss_kib(args.server_pid)
    for _, writer in keep:
        writer.close()
    return {"mode": "flood", "streams": args.streams, "kept": args.keep, "rss_kib_before": before,
            "rss_kib_peak": peak, "rss_kib_3s_after": after, "after_vs_before": round(after / before, 3)}


async def expire(args):
    keep = [await open_stream(args.port, args.path) for _ in range(args.keep)]
    baseline = await gauge(args.port, "playground_sessions")
    before = await settled_rss(args.server_pid)
    reader, writer = await asyncio.open_connection("127.0.0.1", args.port)
    for _ in range(args.cycles):
        writer.write(f"POST /api/scenarios/{args.scenario}/sessions HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n".encode())
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 201"), head[:60]
        length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:"))
        await reader.readexactly(length)
    writer.close()
    peak = rss_kib(args.server_pid)
    t0 = time.monotonic()
    expired = None
    while time.monotonic() - t0 < 120:
        peak = max(peak, rss_kib(args.server_pid))
        if await gauge(args.port, "playground_sessions") <= baseline:
            expired = time.monotonic() - t0
            break
        await asyncio.sleep(0.1)
    await asyncio.sleep(3)
    after = rss_kib(args.server_pid)
    for _, keeper in keep:
        keeper.close()
    return {"mode": "expire", "scenario": args.scenario, "sessions": args.cycles, "kept": args.keep,
            "expired_s": round(expired, 2) if expired is not None else None, "rss_kib_before": before,
            "rss_kib_peak": peak, "rss_kib_3s_after": after, "after_vs_before": round(after / before, 3)}


NAMESPACE = "rp-silent"


async def hold(args):
    """Inside the namespace: opens the streams, says so on stdout, then waits to be cut off."""
    streams = []
    for start in range(0, args.streams, 250):
        streams += await asyncio.gather(*[open_stream(args.port, args.path, host=args.host)
                                          for _ in range(start, min(args.streams, start + 250))])
    print("held", flush=True)
    await asyncio.sleep(3600)


async def silent(args):
    import subprocess

    def ip(*words, check=True):
        return subprocess.run(["ip", *words], check=check, capture_output=True)

    ip("netns", "del", NAMESPACE, check=False)
    ip("link", "del", "rp-host", check=False)
    ip("netns", "add", NAMESPACE)
    holder = None
    try:
        ip("link", "add", "rp-host", "type", "veth", "peer", "name", "rp-client")
        ip("link", "set", "rp-client", "netns", NAMESPACE)
        ip("addr", "add", "10.231.0.1/30", "dev", "rp-host")
        ip("link", "set", "rp-host", "up")
        ip("netns", "exec", NAMESPACE, "ip", "addr", "add", "10.231.0.2/30", "dev", "rp-client")
        ip("netns", "exec", NAMESPACE, "ip", "link", "set", "rp-client", "up")
        ip("netns", "exec", NAMESPACE, "ip", "link", "set", "lo", "up")
        baseline = await gauge(args.port, "microhttp_open_sse_streams")
        holder = subprocess.Popen(["ip", "netns", "exec", NAMESPACE, "python3", __file__, "hold", "--host", "10.231.0.1",
                                   "--port", str(args.port), "--server-pid", "0", "--path", args.path,
                                   "--streams", str(args.streams)], stdout=subprocess.PIPE, text=True)
        assert holder.stdout.readline().strip() == "held"
        held = await gauge(args.port, "microhttp_open_sse_streams")
        # The clients' link goes down: from now on nothing they were sent is answered.
        ip("netns", "exec", NAMESPACE, "ip", "link", "set", "rp-client", "down")
        t0 = time.monotonic()
        released = None
        while time.monotonic() - t0 < args.seconds:
            if await gauge(args.port, "microhttp_open_sse_streams") <= baseline:
                released = time.monotonic() - t0
                break
            await asyncio.sleep(0.5)
        return {"mode": "silent", "streams": args.streams, "held": held - baseline,
                "released_s": round(released, 1) if released is not None else None}
    finally:
        if holder:
            holder.kill()
        ip("netns", "del", NAMESPACE, check=False)
        ip("link", "del", "rp-host", check=False)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["slowloris", "vanish", "churn", "flood", "expire", "silent", "hold"])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--host", default="127.0.0.1", help="where hold connects (inside the namespace)")
    parser.add_argument("--server-pid", type=int, required=True)
    parser.add_argument("--path", default="/events", help="an event stream's path (vanish, flood)")
    parser.add_argument("--probe", default="/healthz", help="the path timed during slowloris")
    parser.add_argument("--sockets", type=int, default=2000)
    parser.add_argument("--trickle", type=float, default=2.0)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--streams", type=int, default=10000)
    parser.add_argument("--reset", action="store_true")
    parser.add_argument("--scenario", default="ticker")
    parser.add_argument("--cycles", type=int, default=10000)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--keep", type=int, default=20)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    run = {"slowloris": slowloris, "vanish": vanish, "churn": churn, "flood": flood, "expire": expire, "silent": silent, "hold": hold}[args.mode]
    print(json.dumps(asyncio.run(run(args))))


if __name__ == "__main__":
    main()
