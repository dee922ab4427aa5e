"""POST /api/marbles/find: its latency for the queries below, one request at a time over one
kept-alive connection (the goal: p99 under 200 ms for two inputs of 10 values), and the hostile
queries the test command also sends (huge rows, many values, pathological timings). Prints JSON.

    python3 Benchmarks/load/finds.py --port PORT [--requests 200] [--table]
"""
import argparse
import http.client
import json
import time

# Two inputs of 10 values each: numbers (the most candidates: thresholds, maps, running totals)
# and letters (equality tests instead), with an output no operator gives, so every candidate runs
# and is ranked.
QUERIES = {
    "two inputs of 10 numbers": {
        "inputs": {"a": "-1-2-3-4-5-6-7-8-9-0|", "b": "--5-6-7-8-9-1-2-3-4-5|"},
        "output": "--x--y-z---|",
    },
    "two inputs of 10 letters": {
        "inputs": {"a": "-a-b-c-d-e-f-g-h-i-j|", "b": "--k-l-m-n-o-p-q-r-s-t|"},
        "output": "---b-----d---|",
    },
    "one input of 10 numbers, filter": {
        "inputs": {"a": "-1-2-3-4-5-6-7-8-9-0|"},
        "output": "---2---4---6---8---0|",
    },
}


def hostile():
    """Finds built to cost the most or break something, as (name, body bytes, statuses allowed)."""
    many = "".join(f"{index % 10}" for index in range(29))  # and the end: 30 events, the most a row may have
    yield "30 values in one frame, twice", {"inputs": {"a": f"({many})|", "b": f"-({many})|"}, "output": f"({many})"}, (200, 400)
    yield "30 values each, the longest rows", {
        "inputs": {"a": "-".join(many) + "|", "b": "--".join(many)[:199] + "|"},
        "output": "-".join(many)[:150] + "|"}, (200, 400)
    yield "rows of 60 s at the largest frame", {"inputs": {"a": "-1---|"}, "output": "---1-|", "frame": 10000}, (200,)
    yield "rows of 2 s at the smallest frame", {"inputs": {"a": "1" * 29 + "-" * 170 + "|"}, "output": "-" * 199 + "1", "frame": 10}, (200,)
    yield "never-ending rows", {"inputs": {"a": "-1-2-3-4-5-6-7-8-9", "b": "-" * 190 + "1"}, "output": "-" * 199}, (200,)
    yield "a row over 200 characters", {"inputs": {"a": "-" * 5000 + "|"}, "output": "|"}, (400,)
    yield "rows spanning over 60 s", {"inputs": {"a": "-" * 100 + "|"}, "output": "|", "frame": 10000}, (400,)
    yield "values of 4 KiB in all", {"inputs": {"a": "-" + "".join(chr(65 + i) for i in range(26)) + "|"}, "output": "-a|",
                                     "values": {chr(65 + i): "v" * 150 for i in range(26)}}, (200,)
    yield "52 values of 1 KiB", {"inputs": {"a": "-a|"}, "output": "-a|",
                                 "values": {chr(c): "v" * 1000 for c in [*range(65, 91), *range(97, 123)]}}, (400,)
    yield "a value nested 400 deep", {"inputs": {"a": "-x|"}, "output": "-x|", "values": {"x": json.loads("[" * 400 + "]" * 400)}}, (400,)
    yield "three inputs", {"inputs": {"a": "-1|", "b": "-1|", "c": "-1|"}, "output": "-1|"}, (400,)
    yield "an input named like a keyword", {"inputs": {"true": "-1|"}, "output": "-1|"}, (400,)
    yield "a frame of 10^300", {"inputs": {"a": "-1|"}, "output": "-1|", "frame": 1e300}, (400,)
    yield "not an object", ["-1|"], (400,)


def post(connection, body):
    start = time.perf_counter()
    connection.request("POST", "/api/marbles/find", body=body, headers={"Content-Type": "application/json"})
    response = connection.getresponse()
    data = response.read()
    return response.status, data, (time.perf_counter() - start) * 1000


def percentile(values, share):
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(share * len(ordered)))], 1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--table", action="store_true", help="print Markdown tables instead of JSON")
    args = parser.parse_args()
    connection = http.client.HTTPConnection("127.0.0.1", args.port)
    results = {}
    for name, query in QUERIES.items():
        body = json.dumps(query).encode()
        for _ in range(5):
            post(connection, body)  # warm-up
        latencies = []
        answer = None
        for _ in range(args.requests):
            status, data, elapsed = post(connection, body)
            if status != 200:
                raise RuntimeError(f"{name}: {status} {data[:200]!r}")
            latencies.append(elapsed)
            answer = json.loads(data)
        results[name] = {"candidates": answer["candidates"], "tried": answer["tried"], "truncated": answer["truncated"],
                         "p50_ms": percentile(latencies, 0.5), "p99_ms": percentile(latencies, 0.99),
                         "max_ms": round(max(latencies), 1)}
    hostile_results = {}
    for name, query, allowed in hostile():
        status, data, elapsed = post(connection, json.dumps(query).encode())
        if status not in allowed:
            raise RuntimeError(f"{name}: {status} {data[:200]!r}")
        hostile_results[name] = {"status": status, "ms": round(elapsed, 1)}
    if not args.table:
        print(json.dumps({"queries": results, "hostile": hostile_results}))
        return
    print("| query | candidates | p50 ms | p99 ms | max ms |\n| --- | --- | --- | --- | --- |")
    for name, row in results.items():
        print(f"| {name} | {row['candidates']} | {row['p50_ms']} | {row['p99_ms']} | {row['max_ms']} |")
    print("\n| hostile find | status | ms |\n| --- | --- | --- |")
    for name, row in hostile_results.items():
        print(f"| {name} | {row['status']} | {row['ms']} |")


if __name__ == "__main__":
    main()
