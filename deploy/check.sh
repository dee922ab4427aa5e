#!/usr/bin/env bash
# deploy/check.sh: builds the images, starts deploy/compose.yaml (nginx and three playground
# instances), and checks through nginx what scaling out promises (deploy/check.py): 30 sessions of
# every scenario driven and watched, spread over the three instances; rooms opened, joined by
# their codes, asked and answered, each on its instance; a watcher reconnected with
# Last-Event-ID loses nothing; one instance stopped (SIGTERM, as a rolling update does): only its
# sessions end, with the `end` event, while the others carry on; new sessions still succeed. Then
# links (deploy/check_links.py): kept through one instance, opened through another; PostgreSQL
# stopped, an instance started anew serves all but links, and keeps them again once it is back.
# Tears everything down (and the links' volume) at the end. Results go in docs/DEPLOY.md.
#
# Needs a Docker engine and Compose (v2's `docker compose`, or docker-compose 1.29). For an engine
# other than the default one, point DOCKER_HOST at its socket; where the engine has no BuildKit,
# set DOCKER_BUILDKIT=0:
#   DOCKER_HOST=unix:///path/to/docker.sock DOCKER_BUILDKIT=0 deploy/check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
project=reactive-playground-check
if docker compose version >/dev/null 2>&1; then
  compose=(docker compose -f deploy/compose.yaml -p "$project")
  tool="docker compose $(docker compose version --short)"
elif command -v docker-compose >/dev/null 2>&1; then
  compose=(docker-compose -f deploy/compose.yaml -p "$project")
  tool="docker-compose $(docker-compose version --short)"
else
  echo "deploy/check.sh: needs docker compose (v2) or docker-compose (1.29)" >&2
  exit 2
fi
port=${CHECK_PORT:-8080}
step() { echo; echo "==> $*"; }
trap '"${compose[@]}" down --volumes --remove-orphans >/dev/null 2>&1 || true' EXIT

step "date $(date -u +%FT%TZ), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $tool"
step "building the images"
"${compose[@]}" build
step "starting PostgreSQL, nginx and the instances blue, green and red"
"${compose[@]}" up -d
for _ in $(seq 1 100); do
  curl -fs "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break
  sleep 0.3
done
curl -fs "http://127.0.0.1:$port/readyz" >/dev/null || { "${compose[@]}" logs --tail 20; echo "nginx never answered" >&2; exit 1; }
"${compose[@]}" ps

step "through nginx on 127.0.0.1:$port"
python3 deploy/check.py --port "$port" --stopped blue --stop "${compose[*]} stop blue"

step "links across instances, and PostgreSQL stopped and started"
python3 deploy/check_links.py --keep-through 127.0.0.1:8082 --read-through 127.0.0.1:8083 --proxy "127.0.0.1:$port" \
  --stop-database "${compose[*]} stop postgres" --start-database "${compose[*]} start postgres" \
  --restart-reader "${compose[*]} restart red"

step "the stopped instance's log, last lines"
"${compose[@]}" logs --tail 5 blue
echo
echo "deploy/check.sh: all checks passed"
