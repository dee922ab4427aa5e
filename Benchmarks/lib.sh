# Shared by the benchmark scripts (sourced from the repository root, after the release build):
# playground servers on free loopback ports, all stopped when the script exits.
#
#   start_playground NAME ARGS...   starts .build/release/playground with ARGS on a free port,
#                                   waits for /healthz, and sets NAME_port and NAME_pid.

started_playgrounds=()

start_playground() {
  local name=$1
  shift
  local port
  port=$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])')
  .build/release/playground --port "$port" --log-level warning "$@" &
  local pid=$!
  started_playgrounds+=("$pid")
  printf -v "${name}_port" '%s' "$port"
  printf -v "${name}_pid" '%s' "$pid"
  for _ in $(seq 1 50); do curl -fs "127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
}

stop_playgrounds() {
  for pid in "${started_playgrounds[@]}"; do
    kill "$pid" 2>/dev/null || true  # some are stopped already; under set -e that is no failure
    wait "$pid" 2>/dev/null || true
  done
}

trap stop_playgrounds EXIT
