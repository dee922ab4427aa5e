#!/usr/bin/env bash
# Programs on every core (issue "Close to the floor", part 3): the playground with 1 program
# thread and with one per core, side by side in one run, release build, loopback:
#   throughput  8 clients post Benchmarks/load/marbles/largest.pipeline to POST /api/marbles for
#               10 s (the per-client rate lifted: this measures the threads, not the limit);
#               answers per second, with the load tool's own CPU share beside it; 3 rounds;
#   hostile     a search session's input-to-event p99 (one watcher, 300 inputs at 50/s) idle and
#               while 1,000 clients behind a trusted proxy post the hostile corpus
#               (load/pipelines.py), alternating, 3 rounds each: the median p99 under the corpus
#               must stay within 2x idle however many cores programs may take.
# Usage: Benchmarks/run-program-threads.sh [threads...]   (default: 1 and the machine's cores)
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product playground >/dev/null
source Benchmarks/lib.sh
counts=("$@")
((${#counts[@]})) || counts=(1 "$(nproc)")
load=Benchmarks/load
results=$(mktemp)

for threads in "${counts[@]}"; do
  echo "== $threads program thread(s)" >&2
  start_playground throughput --program-threads "$threads" --marble-runs-per-second 100000
  for _ in 1 2 3; do
    python3 $load/marbles.py --port "$throughput_port" --program $load/marbles/largest.pipeline --requests 20 \
      --clients 8 --seconds 10 | sed "s/^/$threads throughput /" >>"$results"
  done
  kill "$throughput_pid"; wait "$throughput_pid" 2>/dev/null || true
  start_playground proxied --program-threads "$threads" --trust-proxy --max-sessions 100000 --max-sessions-per-client 1000
  for _ in 1 2 3; do
    python3 $load/loadtest.py fanout --port "$proxied_port" --server-pid "$proxied_pid" --watchers 1 --inputs 300 \
      --rate 50 | sed "s/^/$threads idle /" >>"$results"
    python3 $load/pipelines.py hostile --port "$proxied_port" --seconds 9 --forwarded-clients 1000 >"$results.hostile" &
    hostile=$!
    sleep 0.5  # the corpus is running before the measured inputs start
    python3 $load/loadtest.py fanout --port "$proxied_port" --server-pid "$proxied_pid" --watchers 1 --inputs 300 \
      --rate 50 | sed "s/^/$threads under-hostile /" >>"$results"
    wait $hostile
    sed "s/^/$threads hostile /" "$results.hostile" >>"$results"
  done
  kill "$proxied_pid"; wait "$proxied_pid" 2>/dev/null || true
done

python3 - "$results" <<'PY'
import json, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    threads, kind, data = line.split(" ", 2)
    rows.setdefault((int(threads), kind), []).append(json.loads(data))
counts = sorted({threads for threads, _ in rows})
print("| program threads | answers/s (3 rounds) | load tool CPU, share of a core | search p99 idle / under the corpus, ms (median of 3) | ratio | unexpected answers |")
print("| --- | --- | --- | --- | --- | --- |")
for threads in counts:
    answers = [r["answers_per_second"] for r in rows[(threads, "throughput")]]
    shares = [r["load_tool_cpu_share_of_core"] for r in rows[(threads, "throughput")]]
    idle = statistics.median(r["latency_ms"]["p99"] for r in rows[(threads, "idle")])
    under = statistics.median(r["latency_ms"]["p99"] for r in rows[(threads, "under-hostile")])
    unexpected = sum(r["unexpected"] for r in rows[(threads, "hostile")])
    print(f"| {threads} | {', '.join(str(a) for a in answers)} | {', '.join(str(s) for s in shares)} | "
          f"{idle} / {under} | {under / idle:.2f}x | {unexpected} |")
if len(counts) > 1:
    one, most = counts[0], counts[-1]
    gain = statistics.median(r["answers_per_second"] for r in rows[(most, "throughput")]) / \
        statistics.median(r["answers_per_second"] for r in rows[(one, "throughput")])
    print()
    print(f"{most} threads answer {gain:.2f}x what {one} does (median rounds); goal at least 1.5x.")
PY
