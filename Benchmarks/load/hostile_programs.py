#!/usr/bin/env python3
"""Hostile programs benchmark: each program of the hostile-values corpus (hostile_values.py)
posted to POST /api/marbles of a running playground, on loopback, one at a time. For each:

- the answer: status and bytes;
- the program threads' CPU seconds it took (threads named playground.prog…, /proc/PID/task);
- the server's RSS peak over its baseline (VmRSS sampled every 5 ms while it runs);
- the longest /healthz wait while it ran (one client asking again as soon as answered);
- the wait of a benign program posted right after (and its answer checked).

Prints one JSON line per program. Standard library only; traffic goes to 127.0.0.1 only, and every
loop is bounded by the requests' own timeouts.
"""
import argparse
import json
import os
import threading
import time
import urllib.error
import urllib.request

from hostile_values import BENIGN, REPRODUCERS


def post(port, path, body, timeout=60):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=body.encode(), method="POST")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def rss_bytes(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) * 1024
    return 0


def program_cpu_seconds(pid):
    """CPU seconds of the threads that run programs (their names start with playground.prog)."""
    ticks = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/stat") as stat:
                text = stat.read()
        except FileNotFoundError:
            continue
        name = text[text.index("(") + 1:text.rindex(")")]
        if name.startswith("playground.prog"):
            fields = text[text.rindex(")") + 2:].split()
            ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


def measure(port, pid, name, program):
    baseline = rss_bytes(pid)
    cpu_before = program_cpu_seconds(pid)
    done = threading.Event()
    peak = [baseline]
    health = [0.0]

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], rss_bytes(pid))
            time.sleep(0.005)

    def probe():
        while not done.is_set():
            started = time.monotonic()
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=30).read()
            health[0] = max(health[0], time.monotonic() - started)

    threads = [threading.Thread(target=sample), threading.Thread(target=probe)]
    for thread in threads:
        thread.start()
    started = time.monotonic()
    status, body = post(port, "/api/marbles", program)
    elapsed = time.monotonic() - started
    done.set()
    for thread in threads:
        thread.join()
    cpu = program_cpu_seconds(pid) - cpu_before
    started = time.monotonic()
    benign_status, benign_body = post(port, "/api/marbles", BENIGN)
    benign = time.monotonic() - started
    answer = json.loads(body)
    endings = sorted({event["value"]["code"] for stream in answer.get("streams", {}).values()
                      for event in stream["events"] if event["kind"] == "error"})
    benign_ok = benign_status == 200 and json.loads(benign_body)["streams"]["b"]["marbles"] == "-a-b-c|"
    return {
        "program": name, "bytes_posted": len(program.encode()), "status": status, "answer_bytes": len(body),
        "endings": endings or None, "truncated": answer.get("truncated"), "seconds": round(elapsed, 3),
        "program_cpu_s": round(cpu, 2), "rss_peak_over_baseline_mib": round((peak[0] - baseline) / 2 ** 20, 1),
        "healthz_max_ms": round(health[0] * 1000, 1), "benign_ms": round(benign * 1000, 1), "benign_ok": benign_ok,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--server-pid", type=int, required=True)
    args = parser.parse_args()
    post(args.port, "/api/marbles", BENIGN)  # warm
    for name, program in REPRODUCERS.items():
        print(json.dumps(measure(args.port, args.server_pid, name, program)), flush=True)


if __name__ == "__main__":
    main()
