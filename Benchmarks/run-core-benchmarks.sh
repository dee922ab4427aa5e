#!/usr/bin/env bash
# The core benchmarks: Reactive against OpenCombine and the floor (a hand-written closure chain),
# release build, each figure the median of 3 process runs (each process: warm-up, then the median
# of repeated runs). Prints a table with every figure as a ratio to the floor of the same run.
# Usage: Benchmarks/run-core-benchmarks.sh [scale]   (scale 10 divides every size by 10, for a quick look)
set -euo pipefail
cd "$(dirname "$0")"
swift build -c release --product CoreBenchmarks >/dev/null
binary="$(swift build -c release --show-bin-path)/CoreBenchmarks"
results=$(mktemp)
for run in 1 2 3; do
  echo "process run $run of 3" >&2
  CORE_BENCHMARKS_EXCEPT=S "$binary" "${1:-1}" | sed "s/^/$run /" >>"$results"
  # The spellings in a fresh process: the heap left by the cases above skews them (main.swift).
  CORE_BENCHMARKS_ONLY=S "$binary" "${1:-1}" | sed "s/^/$run /" >>"$results"
done
python3 - "$results" <<'PY'
import json, statistics, sys
from collections import defaultdict
values = defaultdict(list)
units = {}
for line in open(sys.argv[1]):
    run, data = line.split(" ", 1)
    figure = json.loads(data)
    values[(figure["benchmark"], figure["contender"])].append(figure["value"])
    units[figure["benchmark"]] = figure["unit"]
median = {key: statistics.median(v) for key, v in values.items()}
goals = {"1": 2.5, "3": 4, "4": 4, "5a": 3, "5c": 3, "6": 2}
benchmarks = sorted({b for b, _ in median if not b.startswith("S ")}, key=lambda b: (b.split()[0], len(b), b))
print("| case | floor | Reactive | OpenCombine | Reactive goal |")
print("| --- | --- | --- | --- | --- |")
for benchmark in benchmarks:
    unit = units[benchmark]
    floor = median.get((benchmark, "floor"))
    def cell(contender):
        value = median.get((benchmark, contender))
        if value is None:
            return "—"
        if unit == "B":
            return f"{value:.0f} B"
        return f"{value * 1e3:.2f} ms ({value / floor:.2f}×)"
    case = benchmark.split()[0]
    if unit == "B":
        goal = "≤ 250 B"
    else:
        goal = f"≤ {goals[case]}× floor" if case in goals else "faster than OpenCombine"
    print(f"| {benchmark} | {cell('floor')} | {cell('Reactive')} | {cell('OpenCombine')} | {goal} |")

# Spellings: each spelling's time as a ratio to the fastest spelling of its group, in run order.
groups = list(dict.fromkeys(b for b, _ in median if b.startswith("S ")))
if groups:
    print()
    print("| spellings of | spelling | time | × fastest | within 1.2×? |")
    print("| --- | --- | --- | --- | --- |")
    for group in groups:
        contenders = [(c, v) for (b, c), v in median.items() if b == group]
        fastest = min(v for _, v in contenders)
        reference = group.endswith("(reference)")
        for contender, value in contenders:
            verdict = "reference only" if reference else ("yes" if value <= 1.2 * fastest else "**no**")
            print(f"| {group[2:]} | `{contender}` | {value * 1e3:.2f} ms | {value / fastest:.2f}× | {verdict} |")
PY
