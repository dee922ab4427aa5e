#!/usr/bin/env bash
# The playground's latency goals (issue "Scenarios and the session API"), measured with the load
# tool against a release build on loopback: an input's effect on one watcher, and on 1,000
# watchers of one search session (whose validQuery echoes each query). Each figure is the median
# of 3 rounds; a round in which other processes used more than 10 % of a core is repeated.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product playground >/dev/null
source Benchmarks/lib.sh
start_playground main --max-sessions-per-client 1000
port=$main_port server=$main_pid

run() { # label, then loadtest arguments; prints the median round
  local label=$1; shift
  local rounds=()
  while ((${#rounds[@]} < 3)); do
    local result
    result=$(python3 Benchmarks/load/loadtest.py fanout --port "$port" --server-pid "$server" "$@")
    if python3 -c 'import json,sys; sys.exit(0 if json.loads(sys.argv[1])["cpu"]["others_cpu_share_of_core"] <= 0.10 else 1)' "$result"; then
      rounds+=("$result")
    else
      echo "  (round repeated: other processes were busy)" >&2
    fi
  done
  python3 - "$label" "${rounds[@]}" <<'PY'
import json, statistics, sys
label, rounds = sys.argv[1], [json.loads(r) for r in sys.argv[2:]]
p99 = statistics.median(r["latency_ms"]["p99"] for r in rounds)
median = min(rounds, key=lambda r: abs(r["latency_ms"]["p99"] - p99))
lost = max(r["lost"] for r in rounds)
print(f"| {label} | {median['watchers']} | {median['inputs']} @ {median['rate']:.0f}/s | "
      f"{median['latency_ms']['p50']} | {median['latency_ms']['p90']} | {p99} | {median['latency_ms']['max']} | "
      f"{lost} of {median['expected']} | {median['cpu']['server_cpu_s']} |")
PY
}

echo "| case | watchers | inputs | p50 ms | p90 ms | p99 ms | max ms | lost (worst round) | server CPU s |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
run "one watcher" --watchers 1 --inputs 500 --rate 50
run "1,000 watchers" --watchers 1000 --inputs 100 --rate 20
