#!/usr/bin/env bash
# Instructions per outer value of core case 4 (switchToLatest), for the floor and Reactive, counted
# by callgrind: exact, where this machine's wall times vary by a third between identical runs.
# Case 4b (inner signals made by a subscribe closure, which the switch must subscribe to) is
# counted too. Each contender runs at 10,000 and at 30,000 outer values (release build, CountInstructions);
# the difference divided by 20,000 leaves out start-up and the run's fixed costs.
# Needs valgrind (apt-get install valgrind). Usage: Benchmarks/run-instruction-counts.sh
set -euo pipefail
cd "$(dirname "$0")"
command -v valgrind >/dev/null || { echo "valgrind is needed: apt-get install valgrind" >&2; exit 1; }
swift build -c release --scratch-path .build/timing --product CountInstructions >&2
binary=.build/timing/release/CountInstructions
instructions() { # contender outer-values -> instructions of the whole run
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$binary" "$1" "$2" 2>&1 >/dev/null |
    awk '/Collected :/ { print $4 }'
}
declare -A per_value
for contender in floor Reactive Reactive-subscribed; do
  small=$(instructions "$contender" 10000)
  large=$(instructions "$contender" 30000)
  per_value[$contender]=$(((large - small) / 20000))
done
ratio() { python3 -c "print(f'{$1 / $2:.2f}×')"; }
echo "| case 4, instructions per outer value | floor | Reactive (\`just\` inners) | ÷ floor | Reactive, inners subscribed (4b) | ÷ floor |"
echo "| --- | --- | --- | --- | --- | --- |"
echo "| callgrind, 30,000 less 10,000 outer values | ${per_value[floor]} | ${per_value[Reactive]} |" \
  "$(ratio "${per_value[Reactive]}" "${per_value[floor]}") | ${per_value[Reactive-subscribed]} |" \
  "$(ratio "${per_value[Reactive-subscribed]}" "${per_value[floor]}") |"
