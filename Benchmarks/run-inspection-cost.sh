#!/usr/bin/env bash
# What Reactive's inspection hook (Sources/Reactive/Inspection.swift) costs when nobody inspects:
# the core cases built twice — as shipped, and with REACTIVE_NO_INSPECTION=1, which compiles every
# place that could report out — and measured side by side in one run of this script:
#   1. instructions per unit, counted by callgrind (exact: the same for the same binary and input,
#      whatever else the machine does) for the cases CountInstructions runs;
#   2. wall times of every core benchmark (package-benchmark, p50), the two builds taking turns
#      RUNS times (default 3), each figure the median of its runs.
# Prints two tables: without the hook, with the hook off, and the ratio.
# Needs valgrind. Usage: Benchmarks/run-inspection-cost.sh [scale]   (scale as run-core-benchmarks.sh's)
#   FILTER='4 switchToLatest.*' limits the timed benchmarks (package-benchmark's --filter).
#   RUNS=0 counts instructions only.
set -euo pipefail
cd "$(dirname "$0")"
scale=${1:-1}
runs=${RUNS:-3}
[[ $scale =~ ^[0-9]+$ ]] && ((scale >= 1 && scale <= 1000)) || { echo "scale must be a whole number from 1 to 1000, not $scale" >&2; exit 2; }
[[ $runs =~ ^[0-9]+$ ]] && ((runs >= 0 && runs <= 20)) || { echo "RUNS must be a whole number from 0 to 20, not $runs" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "valgrind is needed: apt-get install valgrind" >&2; exit 1; }
filter=()
[[ -n ${FILTER:-} ]] && filter=(--filter "$FILTER")
output=$(mktemp -d)
trap 'rm -rf "$output"' EXIT

# Each build has its own scratch path: the manifest's define differs, so neither rebuilds the other.
build() { # scratch-path [env...]
  local scratch=$1
  shift
  env "$@" swift build -c release --scratch-path "$scratch" --product CountInstructions >&2
}
build .build/timing
build .build/uninspected REACTIVE_NO_INSPECTION=1

# valgrind 3.19 gives up on this toolchain's release debug info; a stripped copy counts the same.
strip --strip-debug -o "$output/hooked" .build/timing/release/CountInstructions
strip --strip-debug -o "$output/uninspected" .build/uninspected/release/CountInstructions
instructions() { # binary contender size
  local log count
  log=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" "$2" "$3" 2>&1 >/dev/null) || true
  count=$(awk '/Collected :/ { print $4 }' <<<"$log")
  [[ -n $count ]] || { echo "callgrind counted nothing for $2 $3:" >&2; echo "$log" | tail -5 >&2; exit 1; }
  echo "$count"
}
per_unit() { # binary contender -> instructions per unit of size (30,000 less 10,000)
  local small large
  small=$(instructions "$1" "$2" 10000)
  large=$(instructions "$1" "$2" 30000)
  echo $(((large - small) / 20000))
}
echo "| case (callgrind, 30,000 less 10,000) | per | without the hook | hook off | ÷ |"
echo "| --- | --- | --- | --- | --- |"
for row in "2 sequence map filter:value:2-Reactive" "3 combineLatest:pair of values:3-Reactive" \
  "4 switchToLatest (\`just\` inners):outer value:Reactive" "4b switchToLatest, inners subscribed:outer value:Reactive-subscribed" \
  "5a subscribe+dispose:subscription:5a-Reactive" "6 subject fan-out:value:6-Reactive"; do
  IFS=: read -r label unit contender <<<"$row"
  without=$(per_unit "$output/uninspected" "$contender")
  off=$(per_unit "$output/hooked" "$contender")
  echo "| $label | $unit | $without | $off | $(python3 -c "print(f'{$off / max($without, 1):.3f}×')") |"
done
echo
((runs > 0)) || exit 0

benchmark() { # scratch-path output-dir [env...]
  local scratch=$1 out=$2
  shift 2
  env "$@" CORE_BENCHMARKS_SCALE="$scale" swift package --disable-sandbox --scratch-path "$scratch" benchmark \
    --target CoreBenchmarks "${filter[@]}" --format influx --path "$out" --no-progress >&2
}
for run in $(seq "$runs"); do
  echo "timing run $run of $runs" >&2
  mkdir -p "$output/uninspected-$run" "$output/hooked-$run"
  benchmark .build/uninspected "$output/uninspected-$run" REACTIVE_NO_INSPECTION=1
  benchmark .build/timing "$output/hooked-$run"
done

python3 - "$output" <<'PY'
import glob, os, statistics, sys
from collections import defaultdict

def read(path):
    """{benchmark: p50 wall time in ns} of one influx export (the fields as run-core-benchmarks.sh
    reads them); spellings (`S …`) and byte counts are left out."""
    values = {}
    for line in open(path, encoding="utf-8"):
        fields = line.rstrip("\n").split(",")
        if line.startswith("#") or fields[0] == "measurement":
            continue
        middle, tail = fields[6:-6], fields[-6:]
        metric, benchmark = ",".join(middle[:-2]), middle[-1]
        if benchmark.startswith("S ") or "Time" not in metric or float(tail[0]) != 50.0:
            continue
        values[benchmark] = float(tail[1])
    return values

def medians(prefix):
    runs = defaultdict(list)
    for path in glob.glob(os.path.join(sys.argv[1], prefix + "-*", "*.influx.csv")):
        for benchmark, value in read(path).items():
            runs[benchmark].append(value)
    return {benchmark: statistics.median(values) for benchmark, values in runs.items()}

without, off = medians("uninspected"), medians("hooked")
print("| benchmark (p50, median of runs) | without the hook | hook off | ÷ |")
print("| --- | --- | --- | --- |")
worst = 0.0
for benchmark in sorted(set(without) & set(off)):
    if "Reactive" not in benchmark:
        continue
    ratio = off[benchmark] / without[benchmark]
    worst = max(worst, ratio)
    print(f"| {benchmark} | {without[benchmark] / 1000:.1f} µs | {off[benchmark] / 1000:.1f} µs | {ratio:.3f}× |")
print(f"\nslowest ratio: {worst:.3f}×")
PY
