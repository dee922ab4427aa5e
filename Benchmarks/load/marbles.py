"""POST /api/marbles latency and throughput: one client posting a marble program over one kept-alive
connection, one request at a time (latency), then N clients at once (answers per second, bounded
by the server's program threads). Prints JSON. A `.json` file is a scenario run instead: its
`path` (POST /api/scenarios/{id}/marbles) and its `body`."""
import argparse
import http.client
import json
import os
import statistics
import threading
import time


def post(connection, request):
    path, body, content_type = request
    start = time.perf_counter()
    connection.request("POST", path, body=body, headers={"Content-Type": content_type})
    response = connection.getresponse()
    data = response.read()
    if response.status != 200:
        raise RuntimeError(f"{response.status}: {data[:200]!r}")
    return (time.perf_counter() - start) * 1000


def percentile(values, share):
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(share * len(ordered)))], 2)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--program", required=True, help="file with the program to post")
    parser.add_argument("--requests", type=int, default=500)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=5)
    args = parser.parse_args()
    text = open(args.program, encoding="utf-8").read()
    if args.program.endswith(".json"):
        scenario = json.loads(text)
        body = (scenario["path"], json.dumps(scenario["body"]).encode(), "application/json")
    else:
        body = ("/api/marbles", text.encode(), "text/plain")
    connection = http.client.HTTPConnection("127.0.0.1", args.port)
    for _ in range(20):
        post(connection, body)  # warm-up
    latencies = [post(connection, body) for _ in range(args.requests)]
    answered = [0] * args.clients
    stop = time.monotonic() + args.seconds

    def client(index):
        own = http.client.HTTPConnection("127.0.0.1", args.port)
        while time.monotonic() < stop:
            post(own, body)
            answered[index] += 1

    threads = [threading.Thread(target=client, args=(index,)) for index in range(args.clients)]
    own = os.times()
    began = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    after = os.times()
    # The load tool's own CPU while it posts, as a share of one core: on a small machine it
    # competes with the server it measures.
    own_share = (after.user + after.system - own.user - own.system) / (time.monotonic() - began)
    print(json.dumps({"requests": args.requests, "p50_ms": percentile(latencies, 0.5), "p99_ms": percentile(latencies, 0.99),
                      "max_ms": round(max(latencies), 2), "mean_ms": round(statistics.mean(latencies), 2),
                      "clients": args.clients, "answers_per_second": round(sum(answered) / args.seconds, 1),
                      "load_tool_cpu_share_of_core": round(own_share, 2)}))


if __name__ == "__main__":
    main()
