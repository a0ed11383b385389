#!/usr/bin/env bash
# Prints the bin directory of Node <major> (22 or 24), fetched once from the npm registry and
# cached in .cache/node<major>/: the `node-linux-<arch>` package is the official build (binary and
# headers). Used by .ci/run (the suite on Node 24), scripts/test-node-lts.sh (a part on Node 22)
# and by hand on a machine whose own Node is too old (docs/node-versions.md):
#   PATH="$(bash scripts/fetch-node.sh 24):$PATH" npm test
# No nodejs.org download: only the npm registry is reachable from CI.
set -euo pipefail
major=${1:?usage: scripts/fetch-node.sh <major>}
cd "$(dirname "$0")/.."
case $(uname -m) in
  x86_64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "no node-linux package for $(uname -m): install Node $major yourself" >&2; exit 1 ;;
esac
work=$PWD/.cache/node$major
if [ ! -x "$work/node/bin/node" ]; then
  echo "Fetching Node $major (npm package node-linux-$arch@$major)…" >&2
  rm -rf "$work" && mkdir -p "$work"
  tarball=$(cd "$work" && npm pack --silent "node-linux-$arch@$major" | tail -1)
  mkdir "$work/unpack"
  tar xzf "$work/$tarball" -C "$work/unpack" --strip-components=1
  rm "$work/$tarball"
  # Renamed into place only once complete: an interrupted fetch is not taken for a Node.
  mv "$work/unpack" "$work/node"
fi
echo "$work/node/bin"
