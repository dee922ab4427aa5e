#!/usr/bin/env bash
# POST /api/marbles/find (issue: compare, find, keep): the latency of a find, one request at a time
# over a kept-alive connection (200 requests after 5 to warm up), for two inputs of 10 numbers, two
# of 10 letters and one of 10 numbers; then each hostile find of the test command's corpus once,
# with its status and time. Goal: p99 under 200 ms for two inputs of 10 values. One program thread,
# as a find runs on one; the release build.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product playground >/dev/null
source Benchmarks/lib.sh
start_playground main --marble-finds-per-second 10000 --program-threads 1
python3 Benchmarks/load/finds.py --port "$main_port" --requests "${REQUESTS:-200}" --table
