#!/usr/bin/env bash
# Instructions of core cases 2 (a sequence mapped and filtered), 3 (combineLatest), 4
# (switchToLatest), 4b (inner signals the switch must subscribe to) and 5a (subscribe + dispose),
# for the floor and Reactive, counted by callgrind: exact, where this machine's wall times vary by
# a third between identical runs. Each contender runs at two sizes (release build,
# CountInstructions); the difference divided by the difference in size leaves out start-up and the
# run's fixed costs: instructions per value (2), per outer value (4, 4b), per pair of values (3)
# or per subscription (5a).
# Needs valgrind (apt-get install valgrind). Usage: Benchmarks/run-instruction-counts.sh
set -euo pipefail
cd "$(dirname "$0")"
command -v valgrind >/dev/null || { echo "valgrind is needed: apt-get install valgrind" >&2; exit 1; }
swift build -c release --scratch-path .build/timing --product CountInstructions >&2
# valgrind 3.19 gives up on the debug info of this toolchain's release builds ("Possibly corrupted
# debuginfo file"); a copy without it counts the same instructions.
binary=$(mktemp)
trap 'rm -f "$binary"' EXIT
strip --strip-debug -o "$binary" .build/timing/release/CountInstructions
instructions() { # contender size -> instructions of the whole run
  local log count
  log=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$binary" "$1" "$2" 2>&1 >/dev/null) || true
  count=$(awk '/Collected :/ { print $4 }' <<<"$log")
  [[ -n $count ]] || { echo "callgrind counted nothing for $1 $2:" >&2; echo "$log" | tail -5 >&2; exit 1; }
  echo "$count"
}
per_unit() { # contender -> instructions per unit of size (10,000 to 30,000)
  local small large
  small=$(instructions "$1" 10000)
  large=$(instructions "$1" 30000)
  echo $(((large - small) / 20000))
}
ratio() { python3 -c "print(f'{$1 / $2:.2f}×')"; }
echo "| case (callgrind, 30,000 less 10,000) | per | floor | Reactive | ÷ floor |"
echo "| --- | --- | --- | --- | --- |"
row() { # label unit floor-contender reactive-contender
  local floor reactive
  floor=$(per_unit "$3")
  reactive=$(per_unit "$4")
  echo "| $1 | $2 | $floor | $reactive | $(ratio "$reactive" "$floor") |"
}
row "2 sequence map filter" "value" 2-floor 2-Reactive
row "3 combineLatest" "pair of values" 3-floor 3-Reactive
row "4 switchToLatest (\`just\` inners)" "outer value" floor Reactive
row "4b switchToLatest, inners subscribed" "outer value" floor Reactive-subscribed
row "5a subscribe+dispose" "subscription" 5a-floor 5a-Reactive
