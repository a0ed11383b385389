#!/usr/bin/env bash
# Runs a command with a Node that Bandstand supports first on PATH: `npm start` (and its build)
# and `npm run test:all` go through here, so README's commands work on a Debian whose own Node
# is older. The Node on PATH when package.json's `engines` accepts it; otherwise Node 24 from the
# npm registry, fetched once into .cache/node24 and checked (scripts/fetch-node.sh), and one line
# says so. BANDSTAND_NODE=system keeps the Node on PATH: an old one is refused at once with the
# server's one line (exit 78), before any build. --prepare (npm ci's postinstall) only fetches,
# so the first start needs no network; --quiet leaves the line out (npm start after prestart).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
major=24
mode=run
case ${1:-} in --prepare | --quiet) mode=${1#--}; shift ;; esac
if node "$root/scripts/node-check.mjs" 2>/dev/null; then
  [ "$mode" = prepare ] || exec "$@"
  exit 0
fi
if [ "${BANDSTAND_NODE:-}" = system ]; then
  [ "$mode" = prepare ] && exit 0
  exec node "$root/scripts/node-check.mjs" --refuse
fi
old=$(node -v 2>/dev/null || echo none)
if ! bin=$(bash "$root/scripts/fetch-node.sh" "$major"); then
  echo "Node $old is too old for Bandstand and Node $major could not be fetched from the npm" \
    "registry: install Node 22.20+ or 24.12+ (docs/node-versions.md)" >&2
  [ "$mode" = prepare ] && exit 0
  exit 78
fi
export PATH="$bin:$PATH"
# node-gyp (npm ci of better-sqlite3) takes this Node's headers, not those a user npmrc names.
export npm_config_nodedir="${bin%/bin}"
case $mode in
  prepare) echo "Node $old is too old for Bandstand: npm start and npm run test:all will run on" \
    "Node $(node -v) from .cache/node$major (BANDSTAND_NODE=system to refuse instead)" >&2 ;;
  run) echo "Node $old is too old for Bandstand: running on Node $(node -v) from" \
    ".cache/node$major (BANDSTAND_NODE=system to refuse instead)" >&2 ;;
esac
[ "$mode" = prepare ] || exec "$@"
