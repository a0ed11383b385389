#!/usr/bin/env bash
# Chromium for the browser tests and benches (test/browser/harness.ts): Playwright's own
# --disable-features list and the harness's merged into one switch. Chromium keeps only the last
# of a repeated switch, so a second --disable-features would switch Playwright's list back on.
# Starts the Chromium in BANDSTAND_CHROMIUM (default /usr/bin/chromium).
set -euo pipefail
features=()
args=()
for arg in "$@"; do
  case $arg in
    --disable-features=*) features+=("${arg#--disable-features=}") ;;
    *) args+=("$arg") ;;
  esac
done
if [ ${#features[@]} -gt 0 ]; then
  merged=$(IFS=,; echo "${features[*]}")
  args+=("--disable-features=$merged")
fi
exec "${BANDSTAND_CHROMIUM:-/usr/bin/chromium}" "${args[@]}"
