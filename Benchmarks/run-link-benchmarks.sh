#!/usr/bin/env bash
# Links under load (issue "Keep what people make"): wrk, 50 connections each from its own address,
# keeps new programs (POST /api/links: each checked on a program thread, then one write
# transaction) and reads kept links (GET /api/links/{id}), 5 s each, against a release build on
# loopback — once with links in SQLite (a file in a temporary folder) and once in PostgreSQL
# (Debian's, on loopback, a database of the run's own), side by side in one run. Each figure is
# the median of 3 rounds. wrk's two threads share the machine's two cores with the server.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
ensure_apt_packages wrk
start_postgres >/dev/null
swift build -c release --product playground >/dev/null
source Benchmarks/lib.sh
postgres=${PLAYGROUND_TEST_POSTGRES:-postgres://playground:store-test-secret@127.0.0.1:5432/postgres}
database=bench_links_$$
folder=$(mktemp -d)
cleanup_links() {
  stop_playgrounds
  psql -qX "$postgres" -c "DROP DATABASE IF EXISTS $database WITH (FORCE)" >/dev/null 2>&1 || true
  rm -rf "$folder"
}
trap cleanup_links EXIT
psql -qX "$postgres" -c "CREATE DATABASE $database" >/dev/null
open=(--trust-proxy --link-saves-per-second 10000 --link-save-burst 100000)
start_playground sqlite --database "sqlite:$folder/links.sqlite" "${open[@]}"
start_playground pg --database "${postgres%/*}/$database" "${open[@]}"
for port in "$sqlite_port" "$pg_port"; do
  curl -fs "127.0.0.1:$port/healthz" >/dev/null || { echo "a playground did not start" >&2; exit 1; }
done

rounds() { # port, then the script's arguments: wrk's report of each of 3 rounds, in one file each
  local port=$1 round
  shift
  for round in 1 2 3; do
    wrk -t2 -c50 -d5s --latency -s Benchmarks/load/links.lua "http://127.0.0.1:$port" -- "$@" "$RANDOM$round" \
      > "$folder/round-$round.txt"
  done
}

row() { # store, request: the median round of the three reports
  python3 - "$1" "$2" "$folder"/round-*.txt <<'PY'
import re, statistics, sys
store, kind, files = sys.argv[1], sys.argv[2], sys.argv[3:]
def ms(text):
    value, unit = re.fullmatch(r"([\d.]+)(us|ms|s)", text).groups()
    return round(float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit], 2)
rounds = []
for name in files:
    text = open(name).read()
    refused = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    rounds.append({"rate": float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1)),
                   "p50": ms(re.search(r"\s50%\s+(\S+)", text).group(1)),
                   "p99": ms(re.search(r"\s99%\s+(\S+)", text).group(1)),
                   "refused": int(refused.group(1)) if refused else 0})
rate = statistics.median(r["rate"] for r in rounds)
median = min(rounds, key=lambda r: abs(r["rate"] - rate))
print(f"| {store} | {kind} | {rate:.0f} | {median['p50']} | {median['p99']} | {max(r['refused'] for r in rounds)} |")
PY
}

measure() { # store, port
  rounds "$2" save
  row "$1" "keep a new program"
  for n in $(seq 1 200); do
    curl -fs "127.0.0.1:$2/api/links" -H 'Content-Type: application/json' -H "X-Forwarded-For: 10.9.9.$((n % 200 + 1))" \
      -d "{\"kind\": \"program\", \"title\": \"Read $n\", \"content\": \"x = just($n)\"}"
    echo
  done | python3 -c 'import json,sys; [print(json.loads(line)["id"]) for line in sys.stdin if line.strip()]' > "$folder/ids.txt"
  rounds "$2" load "$folder/ids.txt"
  row "$1" "read a link"
}

echo "| store | request | answers/s (50 clients) | p50 ms | p99 ms | refused (worst round) |"
echo "| --- | --- | --- | --- | --- | --- |"
measure SQLite "$sqlite_port"
measure PostgreSQL "$pg_port"
