#!/usr/bin/env bash
# Builds Reactive's DocC documentation as the static site the playground serves under /docs/:
# .build/docs-site by default, or the folder given (the container image's /app/docs). Warnings
# fail the build. DocC's pages set their base path with one inline script, which the playground's
# policy (script-src 'self') refuses: it is moved to a file of its own, base-url.js.
# Usage: scripts/build-docs.sh [OUTPUT_FOLDER]
set -euo pipefail
cd "$(dirname "$0")/.."
output=${1:-.build/docs-site}
swift package --disable-sandbox generate-documentation --target Reactive --warnings-as-errors \
  --transform-for-static-hosting --hosting-base-path docs --output-path "$output"
inline='<script>var baseUrl = "/docs/"</script>'
printf 'var baseUrl = "/docs/"\n' >"$output/base-url.js"
# DocC's pages ask for an optional theme; an empty one keeps the browser's console free of a 404.
printf '{}\n' >"$output/theme-settings.json"
find "$output" -name index.html -exec sed -i "s|$inline|<script src=\"/docs/base-url.js\"></script>|" {} +
if grep -rl --include=index.html '<script>' "$output" >/dev/null; then
  echo "an inline script is left in the documentation site ($output): DocC's page template changed" >&2
  exit 1
fi
echo "documentation site: $output ($(find "$output" -name index.html | wc -l) pages)"
