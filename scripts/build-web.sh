#!/bin/sh
# The web app's build (npm run build:web, and the last step of npm run build). A script of its own
# rather than a nested `npm run`: a second npm process would hold ~70 MB while Vite peaks.
set -e
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root/web"
MALLOC_ARENA_MAX=2 NODE_OPTIONS="--max-old-space-size=512 --max-semi-space-size=8 --import \"$root/scripts/kit-workers-exit.mjs\" $NODE_OPTIONS" \
  "$root/node_modules/.bin/vite" build --logLevel warn
node "$root/scripts/finish-web-build.mjs"
