#!/usr/bin/env bash
# POST /api/marbles (issue: the operator gallery): latency of one client posting a marble program,
# one request at a time over a kept-alive connection (1,000 requests after 20 to warm up), and
# answers per second with 8 clients at once for 5 s. One program thread (run-program-threads.sh
# measures more), so the throughput is one core's. Programs: Benchmarks/load/marbles/*.pipeline;
# built-in scenarios on marble rows (POST /api/scenarios/{id}/marbles): Benchmarks/load/marbles/*.json.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product playground >/dev/null
source Benchmarks/lib.sh
start_playground main --marble-runs-per-second 100000 --program-threads 1
port=$main_port server=$main_pid
echo "| program | p50 ms | p99 ms | max ms | answers/s (8 clients, one program thread) |"
echo "| --- | --- | --- | --- | --- |"
for program in Benchmarks/load/marbles/*.pipeline Benchmarks/load/marbles/*.json; do
  python3 Benchmarks/load/marbles.py --port "$port" --program "$program" --requests 1000 --clients 8 --seconds 5 |
    python3 -c 'import json,sys; r=json.load(sys.stdin); print("| %s | %s | %s | %s | %s |" % (sys.argv[1], r["p50_ms"], r["p99_ms"], r["max_ms"], r["answers_per_second"]))' "$(basename "$program")"
done
