#!/usr/bin/env bash
# `npm run test:all` (README's test command, also what .ci/run runs): installs the Debian packages the
# tests need when they are missing — poppler-utils (pdftotext reads the generated PDFs back) and chromium
# (the browser tests) — then `npm test` runs.
set -euo pipefail
missing=()
command -v pdftotext >/dev/null 2>&1 || missing+=(poppler-utils)
[ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] || missing+=(chromium)
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
