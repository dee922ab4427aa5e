#!/usr/bin/env bash
# The memory of a held, idle Server-Sent-Event stream (issue "Close to the floor"), one server
# after the other with the same load on loopback, in one run:
#   floor       Benchmarks/floor/sse-floor.c: libmicrohttpd with the smallest settings that serve
#               (1 KiB of connection memory, 16-byte blocks, suspended connections, no per-stream
#               buffer), the least a server on this library spends;
#   floor-20k   the same with the playground's 20 KiB of connection memory, which takes heads of
#               8 KiB (the playground's promise), so that the two differ only in what the playground adds;
#   playground  the release build with default flags, its streams those of one idle search session;
#   echo        microhttp-echo as run-server-benchmarks.sh runs it (4 KiB of connection memory);
#   echo-1k     microhttp-echo with the floor's 1 KiB of connection memory for every connection (its
#               clients' heads are tiny), so that the two differ only in what MicroHTTP adds;
# The load tool asks for its streams as EventSource does (Accept: text/event-stream), each on a
# connection of its own, so the playground and echo hold them in their smaller connection memory
# for event streams (1 KiB: ServerConfiguration.eventStreamConnectionMemory).
#   node        Benchmarks/load/node-echo.js.
# Each holds STREAMS streams (10,000) for SECONDS (20); RSS per stream is measured against the
# process's RSS before its first stream, after a warm-up round; every stream must get a final
# event. The whole is run RUNS times (3), and every run's figures are printed, with each server's
# ratio to the floor of the same run. Needs node (apt-get install nodejs); the floor is built with
# the Swift toolchain's clang. SERVERS="floor playground" runs only some of them (the floor always:
# every figure is a ratio to it).
# Usage: Benchmarks/run-held-streams.sh [streams] [seconds]
set -euo pipefail
cd "$(dirname "$0")/.."
streams=${1:-10000}
hold_seconds=${2:-20}
runs=${RUNS:-3}
all_servers="floor floor-20k playground echo echo-1k node"
servers=${SERVERS:-$all_servers}
[[ " $servers " == *" floor "* ]] || servers="floor $servers"
for server in $servers; do
  [[ " $all_servers " == *" $server "* ]] || { echo "unknown server $server (one of: $all_servers)" >&2; exit 2; }
done
if [[ " $servers " == *" node "* ]]; then
  command -v node >/dev/null || { echo "node is needed: apt-get install nodejs" >&2; exit 1; }
fi
swift build -c release --product playground >/dev/null
swift build -c release --product microhttp-echo >/dev/null
floor=$(mktemp -d)/sse-floor
clang -O2 -Wall -Wextra -o "$floor" Benchmarks/floor/sse-floor.c -lmicrohttpd
static=Benchmarks/load/static
free_port() { python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'; }

pid=""
trap '[[ -n $pid ]] && kill "$pid" 2>/dev/null || true' EXIT
start() { # server -> sets pid, port and the load tool's target
  port=$(free_port)
  ulimit -n "$(ulimit -Hn)"
  target=echo
  case $1 in
    floor) "$floor" --port "$port" --pool 1024 --block 16 & ;;
    floor-20k) "$floor" --port "$port" --pool 20480 --block 16 & ;;
    playground) .build/release/playground --port "$port" --log-level warning & target=playground ;;
    # As run-server-benchmarks.sh runs it: keep-alives every 2 s notice vanished clients.
    echo) .build/release/microhttp-echo --port "$port" --public "$static" --keep-alive-seconds 2 >/dev/null 2>&1 & ;;
    echo-1k) .build/release/microhttp-echo --port "$port" --public "$static" --keep-alive-seconds 2 \
      --connection-memory-kib 1 >/dev/null 2>&1 & ;;
    node) node Benchmarks/load/node-echo.js --port "$port" --public "$static" >/dev/null 2>&1 & ;;
  esac
  pid=$!
  for _ in $(seq 1 100); do
    # Any answer means it listens (the floor answers 404 to everything but its two routes).
    curl -s -o /dev/null "127.0.0.1:$port/healthz" && return
    sleep 0.05
  done
  echo "$1 did not start" >&2; exit 1
}

results=$(mktemp)
for run in $(seq 1 "$runs"); do
  for server in $servers; do
    echo "== run $run: $server" >&2
    start "$server"
    fresh=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status")  # RSS before the first stream
    descriptors=$(ls "/proc/$pid/fd" | wc -l)
    python3 Benchmarks/load/loadtest.py hold --target "$target" --port "$port" --server-pid "$pid" \
      --streams "$streams" --seconds 1 --settle 2 >/dev/null  # warm-up, not measured
    # The warm-up's streams must be gone (noticed and freed: keep-alives find vanished clients)
    # before the measured round, or their memory would be counted twice.
    for _ in $(seq 1 60); do
      (( $(ls "/proc/$pid/fd" | wc -l) <= descriptors + 16 )) && break
      sleep 0.5
    done
    result=$(python3 Benchmarks/load/loadtest.py hold --target "$target" --port "$port" --server-pid "$pid" \
      --streams "$streams" --seconds "$hold_seconds" --settle 2 --baseline-kib "$fresh")
    echo "$run $server $result" >>"$results"
    kill "$pid"; wait "$pid" 2>/dev/null || true
    pid=""
  done
done

python3 - "$results" <<'PY'
import json, sys
rows = {}
for line in open(sys.argv[1]):
    run, server, data = line.split(" ", 2)
    rows[(int(run), server)] = json.loads(data)
runs = sorted({run for run, _ in rows})
servers = ["floor", "floor-20k", "playground", "echo", "echo-1k", "node"]
measured = [s for s in servers if (runs[0], s) in rows]
streams = rows[(runs[0], "floor")]["streams"]
print(f"| run | floor KiB | floor, 20 KiB (× floor) | playground KiB (× floor; × floor, 20 KiB) | microhttp-echo KiB (× floor) | microhttp-echo, 1 KiB (× floor) | node KiB | final events |")
print("| --- | --- | --- | --- | --- | --- | --- | --- |")
for run in runs:
    kib = {s: rows[(run, s)]["kib_per_stream"] for s in measured}
    final = all(rows[(run, s)]["final_check_received"] == rows[(run, s)].get("final_check_expected", streams) for s in measured)
    ratio = lambda s: f"{kib[s]} ({kib[s] / kib['floor']:.2f})" if s in kib else "-"
    playground = "-"
    if "playground" in kib:
        playground = f"{kib['playground']} ({kib['playground'] / kib['floor']:.2f}"
        playground += f"; {kib['playground'] / kib['floor-20k']:.2f})" if "floor-20k" in kib else ")"
    print(f"| {run} | {kib['floor']} | {ratio('floor-20k')} | {playground} | {ratio('echo')} | {ratio('echo-1k')} | {kib.get('node', '-')} | {'all' if final else 'MISSING'} |")
worst = lambda s: max(rows[(run, s)]["kib_per_stream"] / rows[(run, "floor")]["kib_per_stream"] for run in runs)
below = lambda s: all(rows[(run, s)]["kib_per_stream"] < rows[(run, "node")]["kib_per_stream"] for run in runs)
if set(measured) == set(servers):
    print()
    print(f"{streams} streams each. Goals: the playground within 1.5x of the floor (worst run {worst('playground'):.2f}x), "
          f"microhttp-echo within 1.2x (worst {worst('echo'):.2f}x; with 1 KiB {worst('echo-1k'):.2f}x), both below Node "
          f"in every run (playground {'yes' if below('playground') else 'no'}, echo {'yes' if below('echo') else 'no'}).")
PY
