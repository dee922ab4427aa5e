#!/usr/bin/env bash
# The Inside panel drawn at an instant (issue #74), on loopback, in headless Chromium:
# Benchmarks/load/inside_drawing.py against a release playground, three rounds. A 5,000-event
# search session; at 200 instants back from the end and 200 on to it again, its graph answered, the panel's draw of it (without and with
# the playground's probes), beside the scrubber's step of the diagram to the same instant.
# Needs the test command's .venv (Selenium) and Debian's chromium and chromium-driver.
# Usage: Benchmarks/run-inside-benchmarks.sh [events] [steps]
set -euo pipefail
cd "$(dirname "$0")/.."
events=${1:-5000}
steps=${2:-200}
[[ -x .venv/bin/python ]] || { echo "run the README's test command once first: it makes .venv (Selenium)" >&2; exit 1; }
swift build -c release --product playground >/dev/null
source Benchmarks/lib.sh
for round in 1 2 3; do
  # Every change kept (--inside-changes): the default 20,000 hold about the first 2,000 events.
  start_playground inside --inputs-per-second 10000 --event-buffer $((events + 1000)) \
    --event-buffer-bytes 67108864 --sse-queue-bytes 16777216 --inside-changes 100000
  echo "round $round $(.venv/bin/python Benchmarks/load/inside_drawing.py --port "$inside_port" --events "$events" --steps "$steps")"
  stop_playgrounds
  started_playgrounds=()
done
