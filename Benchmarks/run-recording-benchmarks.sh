#!/usr/bin/env bash
# Recordings and the time scrubber (issue "Record, scrub, replay"), on loopback, in headless
# Chromium: Benchmarks/load/scrubbing.py against a release playground, three rounds.
#   recording  a 5,000-event search session's recording: its bytes, GET …/recording, keeping it
#              as a link beside keeping a one-line program, reading it back, and /s/ID shown;
#   scrub      its page dragged from the end to the start in 300 steps, then 300 steps of the
#              arrow key: the work of each step and the time between animation frames, beside the
#              same instants drawn from scratch (a new diagram fed every event up to each).
# Needs the test command's .venv (Selenium) and Debian's chromium and chromium-driver.
# Usage: Benchmarks/run-recording-benchmarks.sh [events] [steps]
set -euo pipefail
cd "$(dirname "$0")/.."
events=${1:-5000}
steps=${2:-300}
[[ -x .venv/bin/python ]] || { echo "run the README's test command once first: it makes .venv (Selenium)" >&2; exit 1; }
swift build -c release --product playground >/dev/null
source Benchmarks/lib.sh
for round in 1 2 3; do
  start_playground recording --inputs-per-second 10000 --event-buffer $((events + 1000)) \
    --event-buffer-bytes 67108864 --sse-queue-bytes 16777216 --link-saves-per-second 100 --database "sqlite:$(mktemp -d)/links.sqlite"
  echo "round $round $(.venv/bin/python Benchmarks/load/scrubbing.py --port "$recording_port" --events "$events" --steps "$steps")"
  stop_playgrounds
  started_playgrounds=()
done
