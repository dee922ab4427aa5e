#!/usr/bin/env bash
# The resilience goals (issue "Resilience"), measured with Benchmarks/load/resilience.py against
# release builds with default flags, on loopback: slowloris, vanished clients (close, reset and —
# as root, from a network namespace — silent), session churn, a stream flood and 50,000 expired
# sessions, on `playground` and (streams only) `microhttp-echo`.
# Then the hostile programs (Benchmarks/load/hostile_programs.py): each program of the hostile-values
# corpus posted to /api/marbles, with its CPU time, RSS peak and the /healthz and benign waits.
# Prints one JSON line per measurement; docs/PERFORMANCE.md has the goals and the figures.
# ONLY=hostile runs the hostile programs alone.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product playground >/dev/null
swift build -c release --product microhttp-echo >/dev/null
ulimit -n "$(ulimit -Hn)"
free_port() { python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'; }
tool=Benchmarks/load/resilience.py

start() { # server name, extra flags...; sets port and pid
  port=$(free_port)
  local name=$1; shift
  if [ "$name" = playground ]; then
    .build/release/playground --port "$port" --log-level warning "$@" &
  else
    .build/release/microhttp-echo --port "$port" --log-level warning --public Benchmarks/load/static "$@" >/dev/null &
  fi
  pid=$!
  for _ in $(seq 1 50); do curl -fs "127.0.0.1:$port/$probe" >/dev/null && break; sleep 0.1; done
}
stop() { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; }
trap stop EXIT

if [ "${ONLY:-}" = hostile ]; then SERVERS=none; fi
for server in ${SERVERS:-playground microhttp-echo}; do
  [ "$server" = none ] && continue
  probe=healthz
  [ "$server" = playground ] || probe=index.html
  start "$server"
  path=/events
  if [ "$server" = playground ]; then
    sid=$(curl -s -X POST "127.0.0.1:$port/api/scenarios/search/sessions" | sed -E 's/.*"session":"([^"]+)".*/\1/')
    path=/api/sessions/$sid/events
  fi
  echo "== $server" >&2
  python3 "$tool" slowloris --port "$port" --server-pid "$pid" --sockets 2000 --seconds 20 --probe "/$probe" | sed "s/^/$server /"
  python3 "$tool" vanish --port "$port" --server-pid "$pid" --path "$path" --streams 10000 | sed "s/^/$server /"
  python3 "$tool" vanish --port "$port" --server-pid "$pid" --path "$path" --streams 10000 --reset | sed "s/^/$server /"
  python3 "$tool" flood --port "$port" --server-pid "$pid" --path "$path" --streams 10000 --keep 20 | sed "s/^/$server /"
  if [ "$server" = playground ]; then
    python3 "$tool" churn --port "$port" --server-pid "$pid" --scenario ticker --cycles 10000 --rounds 4 | sed "s/^/$server /"
    python3 "$tool" churn --port "$port" --server-pid "$pid" --scenario search --cycles 10000 --rounds 4 | sed "s/^/$server /"
  fi
  stop
  if [ "$(id -u)" = 0 ] && command -v ip >/dev/null; then
    start "$server" --host 0.0.0.0
    if [ "$server" = playground ]; then
      sid=$(curl -s -X POST "127.0.0.1:$port/api/scenarios/search/sessions" | sed -E 's/.*"session":"([^"]+)".*/\1/')
      path=/api/sessions/$sid/events
    fi
    python3 "$tool" silent --port "$port" --server-pid "$pid" --path "$path" --streams 1000 --seconds 120 | sed "s/^/$server /"
    stop
  else
    echo "$server silent: skipped (needs root and iproute2 for a network namespace)" >&2
  fi
done

if [ "${ONLY:-}" != hostile ]; then
  # 50,000 sessions left to expire: room for them and the watched one (a machine that makes them
  # all within the idle timeout has all of them live), and a short idle timeout so that the run is
  # short.
  server=playground
  probe=healthz
  start playground --max-sessions 50001 --max-sessions-per-client 50001 --session-idle-timeout 5
  sid=$(curl -s -X POST "127.0.0.1:$port/api/scenarios/search/sessions" | sed -E 's/.*"session":"([^"]+)".*/\1/')
  for scenario in ticker search; do
    python3 "$tool" expire --port "$port" --server-pid "$pid" --path "/api/sessions/$sid/events" --scenario "$scenario" \
      --cycles 50000 --keep 20 | sed "s/^/playground /"
  done
  stop
fi

# Hostile programs, one at a time, against a playground with default flags (the marble-run rate
# raised so that the benchmark is not refused).
probe=healthz
start playground --marble-runs-per-second 1000
echo "== hostile programs" >&2
(cd Benchmarks/load && python3 hostile_programs.py --port "$port" --server-pid "$pid") | sed "s/^/playground /"
stop
