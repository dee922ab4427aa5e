#!/usr/bin/env bash
# What a held, idle Server-Sent-Event stream keeps on the heap, by call site (issue "Close to the
# floor"): the server runs with Benchmarks/census/alloc-sites.c preloaded, holds STREAMS streams
# (1,000) from the load tool after a warm-up round, and the allocations made while they opened
# and still live are grouped by call stack. Prints one row per site that (nearly) every stream
# keeps, with allocations and usable bytes per stream; malloc adds 8 bytes of its own to each.
# Servers: echo-1k (microhttp-echo with 1 KiB of connection memory, the default here), echo (its
# 4 KiB), playground (release build, default flags, one idle search session's streams), floor
# (Benchmarks/floor/sse-floor.c, 1 KiB).
# Usage: Benchmarks/run-stream-allocations.sh [server] [streams]
set -euo pipefail
cd "$(dirname "$0")/.."
server=${1:-echo-1k}
streams=${2:-1000}
[[ $streams =~ ^[0-9]+$ ]] && ((streams >= 100 && streams <= 20000)) || { echo "streams: 100 to 20000" >&2; exit 2; }
work=$(mktemp -d)
pid=""
trap '[[ -n $pid ]] && kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT
clang -O1 -Wall -Wextra -shared -fPIC -o "$work/alloc-sites.so" Benchmarks/census/alloc-sites.c -ldl -lpthread
target=echo
case $server in
  echo | echo-1k)
    swift build -c release --product microhttp-echo >/dev/null
    binary=.build/release/microhttp-echo
    arguments=(--public Benchmarks/load/static --keep-alive-seconds 2)
    [[ $server == echo-1k ]] && arguments+=(--connection-memory-kib 1) ;;
  playground)
    swift build -c release --product playground >/dev/null
    binary=.build/release/playground target=playground
    arguments=(--log-level warning) ;;
  floor)
    binary=$work/sse-floor
    clang -O2 -Wall -Wextra -o "$binary" Benchmarks/floor/sse-floor.c -lmicrohttpd
    arguments=(--pool 1024 --block 16) ;;
  *) echo "unknown server $server (one of: echo-1k echo playground floor)" >&2; exit 2 ;;
esac
ulimit -n "$(ulimit -Hn)"
port=$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])')
ALLOC_SITES_OUT=$work/sites LD_PRELOAD=$work/alloc-sites.so "$binary" "${arguments[@]}" --port "$port" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 100); do curl -s -o /dev/null "127.0.0.1:$port/healthz" && break; sleep 0.05; done
descriptors() { ls "/proc/$pid/fd" | wc -l; }
before=$(descriptors)
hold() { python3 Benchmarks/load/loadtest.py hold --target "$target" --port "$port" --server-pid "$pid" --streams "$streams" "$@"; }
hold --seconds 1 --settle 2 >/dev/null  # warm-up: the server's pools and tables reach their size
for _ in $(seq 1 60); do (($(descriptors) <= before + 16)) && break; sleep 0.5; done
kill -USR1 "$pid"
hold --seconds 6 --settle 2 >"$work/hold.json" &
loader=$!
# Every stream open (its socket counted), then a moment for the last ones to go idle.
for _ in $(seq 1 200); do (($(descriptors) >= before + streams)) && break; sleep 0.1; done
sleep 1
kill -USR2 "$pid"
wait "$loader"
for _ in $(seq 1 50); do [[ -s $work/sites ]] && break; sleep 0.1; done
final=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["final_check_received"], "of", d["final_check_expected"])' "$work/hold.json")
echo "$server, $streams held streams ($final got their final event):"
python3 Benchmarks/census/symbolize.py "$work/sites" "$binary" "$streams"
