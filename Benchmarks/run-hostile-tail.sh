#!/usr/bin/env bash
# A search session's input-to-event p99 while 1,000 clients behind a trusted proxy post the hostile
# corpus (issue "Close to the floor", part 3), with more samples than run-program-threads.sh's
# rounds: each round starts a fresh server, measures 500 inputs idle, then 1,000 inputs at 50/s
# while load/pipelines.py posts the corpus for 21 s. The configurations alternate round by round,
# so the machine's drift falls on all of them alike; the figure is each configuration's median p99.
# Why: a 300-input round's p99 is its third-worst event, and an "idle" round right after a corpus
# round still carries the programs it left running, so those ratios moved between 1× and 5× on
# identical code.
#
# Usage: Benchmarks/run-hostile-tail.sh [rounds]   (default 4)
#   CONFIGS='--program-threads 1;--program-threads 2'   the flag sets to compare, ';'-separated; a
#     set whose first word is a path to an executable runs that build (A/B of two builds:
#     CONFIGS='/tmp/playground-before;.build/release/playground')
#   PLAYGROUND=path/to/playground   another build to measure instead of this one's release build
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-4}
[[ $rounds =~ ^[0-9]+$ ]] && ((rounds >= 1 && rounds <= 20)) || { echo "rounds must be 1 to 20, not $rounds" >&2; exit 2; }
IFS=';' read -r -a configs <<<"${CONFIGS:---program-threads 1;--program-threads $(nproc)}"
binary=${PLAYGROUND:-.build/release/playground}
[[ -n ${PLAYGROUND:-} ]] || swift build -c release --product playground >/dev/null
load=Benchmarks/load
results=$(mktemp)
trap 'rm -f "$results" "$results.hostile"' EXIT

for round in $(seq "$rounds"); do
  for index in "${!configs[@]}"; do
    echo "== round $round: ${configs[$index]}" >&2
    port=$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])')
    read -r -a flags <<<"${configs[$index]}"
    run=$binary
    if ((${#flags[@]} > 0)) && [[ ${flags[0]} == */* && -x ${flags[0]} ]]; then
      run=${flags[0]}
      flags=("${flags[@]:1}")
    fi
    "$run" --port "$port" --log-level warning --trust-proxy --max-sessions 100000 \
      --max-sessions-per-client 1000 "${flags[@]}" &
    pid=$!
    for _ in $(seq 1 50); do curl -fs "127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
    python3 $load/loadtest.py fanout --port "$port" --server-pid "$pid" --watchers 1 --inputs 500 --rate 50 |
      sed "s/^/$index idle /" >>"$results"
    python3 $load/pipelines.py hostile --port "$port" --seconds 21 --forwarded-clients 1000 >"$results.hostile" &
    hostile=$!
    sleep 0.5 # the corpus is running before the measured inputs start
    python3 $load/loadtest.py fanout --port "$port" --server-pid "$pid" --watchers 1 --inputs 1000 --rate 50 |
      sed "s/^/$index under /" >>"$results"
    wait $hostile
    sed "s/^/$index hostile /" "$results.hostile" >>"$results"
    kill "$pid"
    wait "$pid" 2>/dev/null || true
  done
done

python3 - "$results" "${configs[@]}" <<'PY'
import json, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    index, kind, data = line.split(" ", 2)
    rows.setdefault((int(index), kind), []).append(json.loads(data))
print("| configuration | idle p99 per round, ms | under the corpus p99 per round, ms | median under ÷ median idle | worst max, ms | events lost | answers other than 201, 400, 413, 429, 503 server_busy |")
print("| --- | --- | --- | --- | --- | --- | --- |")
for index, flags in enumerate(sys.argv[2:]):
    idle = [r["latency_ms"]["p99"] for r in rows[(index, "idle")]]
    under = [r["latency_ms"]["p99"] for r in rows[(index, "under")]]
    worst = max(r["latency_ms"]["max"] for r in rows[(index, "under")])
    lost = sum(r["lost"] for r in rows[(index, "idle")] + rows[(index, "under")])
    other = {}
    for r in rows[(index, "hostile")]:
        for status, count in r["statuses"].items():
            if status not in ("201", "400", "413", "429", "503 server_busy"):
                other[status] = other.get(status, 0) + count
    ratio = statistics.median(under) / statistics.median(idle)
    print(f"| `{flags}` | {', '.join(map(str, idle))} | {', '.join(map(str, under))} | {ratio:.2f}× | {worst} | {lost} | {other or 'none'} |")
PY
