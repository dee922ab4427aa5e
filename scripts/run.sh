#!/usr/bin/env bash
# Builds the playground in release mode (installing libmicrohttpd-dev, libsqlite3-dev and libpq-dev when
# missing) and runs it; links are kept in .data/playground.sqlite (--database).
# Extra arguments go to the server, e.g. `scripts/run.sh --port 9000`; see `--help`.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

require_swift
ensure_apt_packages libmicrohttpd-dev libsqlite3-dev libpq-dev pkg-config
echo "==> building (release)"
swift build -c release --product playground
echo "==> building Reactive's documentation, served under /docs/"
scripts/build-docs.sh
echo "==> starting: open http://127.0.0.1:8080/ unless you chose another --host/--port (Ctrl-C stops it)"
exec .build/release/playground --public Public "$@"
