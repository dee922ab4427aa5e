#!/usr/bin/env bash
# The core benchmarks (CoreBenchmarks/, on ordo-one's package-benchmark): Reactive against
# OpenCombine and the floor (a hand-written closure chain), release builds. Prints
# docs/PERFORMANCE.md's tables: every time as a ratio to the floor of the same run, malloc counts,
# and each spelling of an operator as a ratio to the fastest of its group.
#
# Two builds (CoreBenchmarks/Harness.swift says why): the timing build runs RUNS times (default 3;
# each figure is the median of the runs' p50, or for a spelling of the runs' fastest iteration:
# identical code paths then agree within a few per cent), the counting build, with
# package-benchmark's malloc interposer, once. Each has its own scratch path, so neither rebuilds the other.
#
# Usage: Benchmarks/run-core-benchmarks.sh [scale]
#   scale (1 to 1000, default 1) divides every size, for a quick look.
#   RUNS=1 Benchmarks/run-core-benchmarks.sh   one timing run instead of 3.
#   FILTER='4 switchToLatest.*' Benchmarks/run-core-benchmarks.sh   only the benchmarks matching
#     the regular expression (package-benchmark's --filter).
# Comparing a change against a saved baseline: Benchmarks/README.md.
set -euo pipefail
cd "$(dirname "$0")"
scale=${1:-1}
runs=${RUNS:-3}
[[ $scale =~ ^[0-9]+$ ]] && ((scale >= 1 && scale <= 1000)) || { echo "scale must be a whole number from 1 to 1000, not $scale" >&2; exit 2; }
[[ $runs =~ ^[0-9]+$ ]] && ((runs >= 1 && runs <= 20)) || { echo "RUNS must be a whole number from 1 to 20, not $runs" >&2; exit 2; }
filter=()
[[ -n ${FILTER:-} ]] && filter=(--filter "$FILTER")
output=$(mktemp -d)
trap 'rm -rf "$output"' EXIT

benchmark() { # scratch-path output-dir
  CORE_BENCHMARKS_SCALE=$scale swift package --disable-sandbox --scratch-path "$1" benchmark \
    --target CoreBenchmarks "${filter[@]}" --format influx --path "$2" --no-progress >&2
}
for run in $(seq "$runs"); do
  echo "timing run $run of $runs" >&2
  mkdir -p "$output/timing-$run"
  benchmark .build/timing "$output/timing-$run"
done
echo "counting mallocs" >&2
mkdir -p "$output/counting"
CORE_BENCHMARKS_MALLOCS=1 benchmark .build/counting "$output/counting"

python3 - "$output" <<'PY'
import glob, os, statistics, sys
from collections import defaultdict

def read(path):
    """{(benchmark, metric): value} from one influx export: the p0 (fastest run) of a spelling,
    the p50 of anything else. Values are raw: nanoseconds, counts, bytes. Benchmark names have no
    commas; a spelling's metric may (`combineLatest(a, b)`), so a line is read from both ends:
    6 fields of the machine, then metric, unit and benchmark, then 6 more."""
    values = {}
    for line in open(path, encoding="utf-8"):
        fields = line.rstrip("\n").split(",")
        if line.startswith("#") or fields[0] == "measurement":
            continue
        middle, tail = fields[6:-6], fields[-6:]
        metric, benchmark = ",".join(middle[:-2]).replace("\u00a0", " "), middle[-1]
        if float(tail[0]) == (0.0 if benchmark.startswith("S ") else 50.0):
            values[(benchmark, metric)] = float(tail[1])
    return values

root = sys.argv[1]
runs = [read(path) for path in sorted(glob.glob(os.path.join(root, "timing-*", "*.influx.csv")))]
mallocs = read(glob.glob(os.path.join(root, "counting", "*.influx.csv"))[0])
values = defaultdict(list)
for run in runs:
    for key, value in run.items():
        values[key].append(value)
median = {key: statistics.median(v) for key, v in values.items()}

WALL, MALLOCS, BYTES = "Time (wall clock)", "Malloc (total)", "heap bytes per live subscription"
def metric_of(key_metric, wanted):
    return key_metric.replace(" ", "") == wanted.replace(" ", "")

def find(table, benchmark, metric):
    for (b, m), value in table.items():
        if b == benchmark and metric_of(m, metric):
            return value
    return None

names = {b for b, _ in median}
cases = sorted({b.rpartition(" · ")[0] for b in names if not b.startswith("S ")}, key=lambda c: (c.split()[0], len(c), c))
goals = {"1": 2.5, "2": 3, "3": 4, "4": 4, "5a": 3, "5c": 3, "6": 2}
print(f"Timing: median of {len(runs)} runs of each case's p50 and of each spelling's fastest; mallocs: p50 of one counting run.")
print()
if cases:
    print("| case | floor | Reactive | OpenCombine | Reactive goal | mallocs a run: floor / Reactive / OpenCombine |")
    print("| --- | --- | --- | --- | --- | --- |")
for case in cases:
    if case.startswith("5b"):
        cells = [find(median, f"{case} · {c}", BYTES) for c in ("floor", "Reactive", "OpenCombine")]
        print(f"| {case} | " + " | ".join("—" if v is None else f"{v:.0f} B" for v in cells) + " | ≤ 250 B | |")
        continue
    floor = find(median, f"{case} · floor", WALL)
    def cell(contender):
        value = find(median, f"{case} · {contender}", WALL)
        if value is None:
            return "—"
        return f"{value / 1e6:.2f} ms" + ("" if floor is None else f" ({value / floor:.2f}×)")
    counts = [find(mallocs, f"{case} · {c}", MALLOCS) for c in ("floor", "Reactive", "OpenCombine")]
    counted = " / ".join("—" if v is None else f"{v:.0f}" for v in counts)
    number = case.split()[0]
    if number == "4b":
        goal = "none: case 4 without the `just` shortcut"
    else:
        goal = f"≤ {goals[number]}× floor" if number in goals else "faster than OpenCombine"
    print(f"| {case} | {cell('floor')} | {cell('Reactive')} | {cell('OpenCombine')} | {goal} | {counted} |")

groups = sorted(b for b in names if b.startswith("S "))
if groups:
    print()
    print("| spellings of | spelling | time | × fastest | within 1.2×? |")
    print("| --- | --- | --- | --- | --- |")
    for group in groups:
        spellings = [(m, v) for (b, m), v in median.items() if b == group]
        fastest = min(v for _, v in spellings)
        reference = group.endswith("(reference)")
        for spelling, value in sorted(spellings):
            verdict = "reference only" if reference else ("yes" if value <= 1.2 * fastest else "**no**")
            print(f"| {group[2:]} | `{spelling}` | {value / 1e6:.2f} ms | {value / fastest:.2f}× | {verdict} |")
PY
