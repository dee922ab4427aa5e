#!/usr/bin/env bash
# Runs every test: installs what they need, builds with zero warnings, runs the Swift tests (also
# under ThreadSanitizer), lints the Dockerfile, and runs the end-to-end and browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
started=$(date +%s)
step() { echo; echo "==> $* ($(( $(date +%s) - started ))s)"; }

require_swift
step "installing test dependencies"
ensure_apt_packages libmicrohttpd-dev libsqlite3-dev libpq-dev postgresql pkg-config curl chromium chromium-driver
if ! python3 -m venv --help >/dev/null 2>&1 || ! python3 -c 'import ensurepip' >/dev/null 2>&1; then
  ensure_apt_packages python3-venv
fi
if [ ! -x .venv/bin/pytest ] || ! cmp -s Tests/e2e/requirements.txt .venv/requirements.txt; then
  rm -rf .venv
  python3 -m venv .venv
  .venv/bin/pip install --quiet --disable-pip-version-check -r Tests/e2e/requirements.txt
  cp Tests/e2e/requirements.txt .venv/requirements.txt
fi

step "PostgreSQL on loopback (the store's tests run against it)"
start_postgres
# The maintenance database: each test makes a database of its own there and drops it after.
export PLAYGROUND_TEST_POSTGRES="postgres://playground:store-test-secret@127.0.0.1:5432/postgres"

step "hadolint"
.venv/bin/hadolint --failure-threshold warning --ignore DL3008 Dockerfile deploy/postgres.Dockerfile deploy/nginx.Dockerfile
echo "Dockerfiles: no findings"

step "swift format lint --strict (the style of .swift-format)"
swift format lint --strict --recursive --parallel Sources Tests Package.swift Benchmarks/Package.swift Benchmarks/Sources Benchmarks/CoreBenchmarks \
  Examples/Package.swift Examples/Sources
echo "no findings"

step "building (debug, with tests); any warning fails"
build_log=$(mktemp)
swift build --build-tests 2>&1 | tee "$build_log"
if grep -E "warning:" "$build_log" | grep -v "/.build/" ; then
  echo "error: the build has warnings (listed above)" >&2
  exit 1
fi

step "Reactive without its inspection hook (REACTIVE_NO_INSPECTION=1: what the hook's cost is measured against)"
uninspected_log=$(mktemp)
REACTIVE_NO_INSPECTION=1 swift build --target Reactive --scratch-path .build-uninspected 2>&1 | tee "$uninspected_log" | tail -1
if grep -E "warning:" "$uninspected_log" | grep -v "/.build"; then
  echo "error: Reactive without its hook has warnings (listed above)" >&2
  exit 1
fi

step "swift test"
swift test --skip-build

step "swift test --sanitize=thread"
# ThreadSanitizer prints its reports without always failing the run: any report fails it here.
# The parsers' fuzz suite is skipped here: it runs on one thread, so ThreadSanitizer can find
# nothing in it, and under it its thousands of parses took 18 of the run's 24 minutes.
tsan_log=$(mktemp)
swift test --sanitize=thread --scratch-path .build-tsan --skip OutsideNumbersTests 2>&1 | tee "$tsan_log"
if grep -q "WARNING: ThreadSanitizer" "$tsan_log"; then
  echo "error: ThreadSanitizer reported a data race (see above)" >&2
  exit 1
fi

step "DocC: the Reactive and ReactiveTesting catalogues, warnings as errors"
swift package --disable-sandbox generate-documentation --target Reactive --target ReactiveTesting \
  --warnings-as-errors --transform-for-static-hosting

step "Examples/: the Reactive library used from another package, without the server"
examples_log=$(mktemp)
swift build --package-path Examples 2>&1 | tee "$examples_log"
if grep -E "warning:" "$examples_log" | grep -v "/.build/"; then
  echo "error: the example has warnings (listed above)" >&2
  exit 1
fi
# Lines that arrive at once are one burst of typing: only the last query is searched, when the
# input ends (the pause is long enough that no search can start earlier).
answer=$(printf 'sw\nswi\nswift\n' | Examples/.build/debug/throttled-search --pause-ms 10000)
if [ "$answer" != "swift: Swift, SwiftUI" ]; then
  echo "error: throttled-search answered '$answer'" >&2
  exit 1
fi
status=0
Examples/.build/debug/throttled-search --pause-ms -1 </dev/null 2>/dev/null || status=$?
if [ "$status" != 2 ]; then
  echo "error: throttled-search accepted --pause-ms -1 (exit status $status)" >&2
  exit 1
fi
echo "throttled-search: $answer"

step "Benchmarks/: the core benchmarks build, and every contender of every case agrees"
# A debug build run once through at 1/1000 of every size (package-benchmark runs every benchmark
# when its binary is started alone): it times nothing worth reading, but each run checks that
# every contender of a case computed the same checksum, and stops the program if not.
benchmarks_log=$(mktemp)
swift build --package-path Benchmarks --scratch-path Benchmarks/.build/check 2>&1 | tee "$benchmarks_log"
if grep -E "warning:" "$benchmarks_log" | grep -v "/.build/"; then
  echo "error: the benchmarks have warnings (listed above)" >&2
  exit 1
fi
CORE_BENCHMARKS_SCALE=1000 Benchmarks/.build/check/debug/CoreBenchmarks >"$benchmarks_log" 2>&1 || {
  tail -20 "$benchmarks_log" >&2
  echo "error: a core benchmark failed (its output's end is above)" >&2
  exit 1
}
# The held-stream floor (Benchmarks/floor/sse-floor.c) compiles without warnings against the
# libmicrohttpd it measures.
clang -O2 -Wall -Wextra -Werror -o "$(mktemp -d)/sse-floor" Benchmarks/floor/sse-floor.c -lmicrohttpd  # the toolchain's clang
# So do the allocation census that run-stream-allocations.sh preloads, and its report.
clang -O1 -Wall -Wextra -Werror -shared -fPIC -o "$(mktemp -d)/alloc-sites.so" Benchmarks/census/alloc-sites.c -ldl -lpthread
python3 -m py_compile Benchmarks/census/symbolize.py
# The cases CountInstructions counts: each Reactive contender sums to its floor's figure.
for pair in floor:Reactive floor:Reactive-subscribed 3-floor:3-Reactive 5a-floor:5a-Reactive; do
  floor=$(Benchmarks/.build/check/debug/CountInstructions "${pair%%:*}" 1000)
  sum=$(Benchmarks/.build/check/debug/CountInstructions "${pair##*:}" 1000)
  if [ "$floor" != "$sum" ]; then
    echo "error: CountInstructions: ${pair%%:*} sums to $floor, ${pair##*:} to $sum" >&2
    exit 1
  fi
done
echo "every core benchmark ran; every case's contenders agreed (CountInstructions's too)"

step "the documentation site the playground serves under /docs/ (scripts/build-docs.sh)"
scripts/build-docs.sh

step "end-to-end and browser tests"
.venv/bin/pytest -q Tests/e2e --playground .build/debug/playground

echo
echo "all tests passed in $(( $(date +%s) - started ))s"
