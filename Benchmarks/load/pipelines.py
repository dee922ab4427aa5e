#!/usr/bin/env python3
"""Load for the pipeline language's goals (issue "Your own pipeline, part 1"), on loopback.

Modes:
  check    POSTs a program to /api/pipelines/check COUNT times, one at a time over one kept-alive
           connection; reports the latency p50/p99/max in ms and that every answer was 200.
  hostile  for SECONDS, two clients post the hostile corpus below to /api/pipelines in turn; each
           session made is deleted a second later. Reports how many of each status came back and
           how many answers were none of 201, 400, 413, 429 (the client's program rate or session
           cap) and 503 server_busy (the programs' memory limits: --max-heap-bytes,
           --program-event-bytes; reported as "503 server_busy", any other 503 as "503") or failed
           to come at all: that count must be 0.

The corpus: spinning programs (`failure("x").retry()`, `just(1).repeat()`), an explosion of
flattenings, ten 10 ms intervals, `interval(0ms)`, self-reference, 300 definitions, nesting 400
deep, a 60,000-character literal, a megabyte of text, invalid UTF-8 and random token soup.

Standard library only. One JSON line on stdout.
"""
import argparse
import http.client
import json
import random
import statistics
import sys
import threading
import time


def chain(streams, per_stream):
    """`streams` named streams, each reading the one before through `per_stream` operators."""
    lines = ["s0 = interval(10ms)"] + [f"s{i} = s{i - 1}" + ".skip(0)" * per_stream for i in range(1, streams)]
    return ("\n".join(lines) + "\n").encode()


def corpus():
    ten = "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]"
    thousands = "[" + ",".join(str(i) for i in range(9_000)) + "]"
    programs = [
        b'x = failure("x").retry()\n',
        b"x = just(1).repeat()\n",
        f"x = from({ten}).flatMap(.merge) {{ _ in from({ten}).flatMap(.merge) {{ _ in from({ten}).flatMap(.merge) "
        f"{{ _ in from({ten}).flatMap(.merge) {{ _ in from({ten}) }} }} }} }}\n".encode(),
        "\n".join(f"t{i} = interval(10ms).map {{ $0 * 2 }}" for i in range(10)).encode() + b"\n",
        b"x = interval(0ms)\n",
        b"a = b\nb = a\n",
        "\n".join(f"s{i} = just({i})" for i in range(300)).encode() + b"\n",
        b"x = just(" + b"(" * 400 + b"1" + b")" * 400 + b")\n",
        b'x = just("' + b"a" * 60_000 + b'")\n',
        b"x = just(1)\n// " + b"a" * 1_000_000 + b"\n",  # declared, not sent: see oversized()
        b"x = just(\xff\xfe)\n",
        # Diagrams read at run time: 500 inner diagrams of 900 values each, all in one frame.
        b'a = marbles("(' + b"x" * 500 + b'|)", x: marbles("(' + b"a" * 900 + b'|)"))\n'
        b"out = a.flatMap(.merge) { marbles($0) }\n",
        b'a = marbles("-x|", x: marbles("' + b"a" * 990 + b'|"))\nout = a.flatMap(.merge) { marbles($0) }.repeat()\n',
        # Thousands of synchronous signals in a row, each one's completion starting the next: each
        # of these overflowed the stack, and took the server down, while that was a recursion.
        b"x = concat(" + b", ".join([b"from([1])"] * 5_000) + b")\n",
        f"x = from({thousands}).concatMap {{ v in v == 0 ? timer(after: 10ms) : from([v]) }}\n".encode(),
        f"x = from({thousands}).flatMap(.concurrent(limit: 2)) {{ v in v < 2 ? timer(after: 10ms) : from([v]) }}\n".encode(),
        # A chain of named streams nearly as deep as the checker allows (501 operators), and one far too
        # deep (3,000 operators, which overflowed the stack before the checker bounded chains).
        # Resubscribing to a named stream that has ended: once a loop without a step, which kept
        # the program thread busy for good.
        b"x = empty\ny = x.repeat()\n",
        chain(6, 100),
        chain(26, 120),
    ]
    soup = random.Random(7)
    tokens = ["(", ")", "{", "}", "[", "]", ".", "map", "x", "=", "$0", "1", "\n", "input", ":", "text", '"', "interval"]
    for _ in range(5):
        programs.append(" ".join(soup.choice(tokens) for _ in range(2_000)).encode())
    return programs


def connect(port):
    return http.client.HTTPConnection("127.0.0.1", port, timeout=30)


def oversized(port, length):
    """A body over the server's limit, declared but not sent: the server answers 413 from the head
    and closes the connection, so a client still writing the body could be reset before it reads
    the answer (Python's http.client is); HTTP lets a server answer early, and clients read it."""
    import socket
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=30) as raw:
            raw.sendall(f"POST /api/pipelines HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
                        f"Content-Length: {length}\r\n\r\n".encode())
            head = raw.recv(4096)
        return int(head.split(b" ", 2)[1])
    except (OSError, ValueError, IndexError):
        return "no answer"


def check(args):
    with open(args.file, "rb") as file:
        program = file.read()
    connection = connect(args.port)
    latencies, statuses = [], {}
    for _ in range(args.count):
        started = time.perf_counter()
        connection.request("POST", "/api/pipelines/check", program, {"Content-Type": "text/plain"})
        response = connection.getresponse()
        response.read()
        latencies.append((time.perf_counter() - started) * 1000)
        statuses[response.status] = statuses.get(response.status, 0) + 1
    latencies.sort()
    return {"mode": "check", "lines": program.count(b"\n"), "requests": args.count, "statuses": statuses,
            "latency_ms": {"p50": round(statistics.median(latencies), 3),
                           "p99": round(latencies[int(len(latencies) * 0.99) - 1], 3), "max": round(latencies[-1], 3)}}


def busy_code(body):
    """The error code of a JSON error answer, or None."""
    try:
        return json.loads(body)["error"]["code"]
    except (ValueError, KeyError, TypeError):
        return None


def hostile(args):
    programs = corpus()
    statuses, unexpected, lock, failures = {}, [0], threading.Lock(), {}
    deadline = time.monotonic() + args.seconds
    pending = []  # (time to delete, session)

    def client(offset):
        connection = connect(args.port)
        index = offset
        while time.monotonic() < deadline:
            program = programs[index % len(programs)]
            index += 1
            if len(program) > 64 * 1024:
                status = oversized(args.port, len(program))
                with lock:
                    statuses[status] = statuses.get(status, 0) + 1
                    if status not in (413, 429):
                        unexpected[0] += 1
                continue
            headers = {"Content-Type": "text/plain"}
            if args.forwarded_clients:
                # Behind a trusted proxy, as that many clients: the per-client rate does not hold them back.
                headers["X-Forwarded-For"] = f"10.0.{index % args.forwarded_clients // 256}.{index % 256}"
            try:
                connection.request("POST", "/api/pipelines", program, headers)
                response = connection.getresponse()
                body = response.read()
                status = response.status
                if status == 503 and busy_code(body) == "server_busy":
                    status = "503 server_busy"
                if response.getheader("Connection", "").lower() == "close":
                    connection.close()
                    connection = connect(args.port)
            except (OSError, http.client.HTTPException) as error:
                status = "no answer"
                with lock:
                    failures[f"{len(program)} bytes: {type(error).__name__}"] = failures.get(f"{len(program)} bytes: {type(error).__name__}", 0) + 1
                connection.close()
                connection = connect(args.port)
            with lock:
                statuses[status] = statuses.get(status, 0) + 1
                if status not in (201, 400, 413, 429, "503 server_busy"):
                    unexpected[0] += 1
                if status == 201:
                    pending.append((time.monotonic() + 1, json.loads(body)["session"]))

    def deleter():
        connection = connect(args.port)
        while time.monotonic() < deadline + 1.5:
            with lock:
                due = [entry for entry in pending if entry[0] <= time.monotonic()]
                for entry in due:
                    pending.remove(entry)
            for _, session in due:
                connection.request("DELETE", f"/api/sessions/{session}")
                connection.getresponse().read()
            time.sleep(0.05)  # pacing the deleter, not waiting for a result

    threads = [threading.Thread(target=client, args=(offset,)) for offset in range(2)]
    threads.append(threading.Thread(target=deleter))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {"mode": "hostile", "seconds": args.seconds, "statuses": {str(k): v for k, v in statuses.items()},
            "unexpected": unexpected[0], "no_answer_for": failures}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["check", "hostile"])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--file", help="check: the program to check")
    parser.add_argument("--count", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--forwarded-clients", type=int, default=0,
                        help="hostile: post as this many clients through X-Forwarded-For (a server run with --trust-proxy)")
    args = parser.parse_args()
    if not 1 <= args.count <= 100_000 or not 0 < args.seconds <= 3_600:
        parser.error("count 1..100000, seconds 0..3600")
    if args.mode == "check" and not args.file:
        parser.error("check needs --file")
    print(json.dumps(check(args) if args.mode == "check" else hostile(args)))


if __name__ == "__main__":
    sys.exit(main())
