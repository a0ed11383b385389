#!/usr/bin/env bash
# `npm run test:all` (README's test command, also what .ci/run runs): installs the Debian packages the
# tests need when they are missing — poppler-utils (pdftotext reads the generated PDFs back), chromium
# (the browser tests) and wrk (the benchmark's load generator, run by the bench smoke test) — then
# `npm test` runs. .ci/run runs it before `npm ci` too, for python3, make and g++: `npm ci` runs
# node-gyp for better-sqlite3 whatever its `"gypfile": false` says (npm/cli#3341), and node-gyp
# needs python3 and make even when it finds the bundled binary and compiles nothing (g++: only
# where none ships).
set -euo pipefail
missing=()
command -v python3 >/dev/null 2>&1 || missing+=(python3)
command -v make >/dev/null 2>&1 || missing+=(make)
command -v g++ >/dev/null 2>&1 || missing+=(g++)
command -v pdftotext >/dev/null 2>&1 || missing+=(poppler-utils)
[ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] || missing+=(chromium)
command -v wrk >/dev/null 2>&1 || missing+=(wrk)
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo=(sudo); else
    echo "The tests need ${missing[*]}: run as root, or install them: apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
fi
echo "Installing ${missing[*]} for the tests (apt-get)…"
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
