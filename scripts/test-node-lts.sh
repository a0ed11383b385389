#!/usr/bin/env bash
# The suite's representative part on a supported LTS line (docs/deployment.md; Node 22
# unless NODE_TEST_MAJOR says otherwise), after the whole suite ran on the machine's Node. That Node
# comes from the npm registry (the `node-linux-<arch>` package: the binary and its headers);
# better-sqlite3 is compiled for its ABI against those headers (node-gyp, offline: no prebuilt
# download, no nodejs.org), and swapped into node_modules only while these tests run (restored on
# any exit). Both are cached in .cache/node<major>/.
# NODE_TEST_MAJOR=24 runs the same on Node 24: with better-sqlite3 12 it aborts (docs/deployment.md).
set -euo pipefail
cd "$(dirname "$0")/.."
major=${NODE_TEST_MAJOR:-22}
arch=$(node -p process.arch)
work=.cache/node$major
mkdir -p "$work"
if [ ! -x "$work/node/bin/node" ]; then
  echo "Fetching Node $major (npm package node-linux-$arch@$major)…"
  tarball=$(cd "$work" && npm pack --silent "node-linux-$arch@$major" | tail -1)
  mkdir -p "$work/node"
  tar xzf "$work/$tarball" -C "$work/node" --strip-components=1
  rm "$work/$tarball"
fi
nodex=$PWD/$work/node/bin/node
abi=$("$nodex" -p process.versions.modules)
built=$work/better_sqlite3-abi$abi.node
if [ ! -f "$built" ]; then
  echo "Compiling better-sqlite3 for Node $("$nodex" -v) (ABI $abi)…"
  gyp=${npm_config_node_gyp:-$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")/node_modules/node-gyp/bin/node-gyp.js}
  rm -rf "$work/better-sqlite3"
  cp -r node_modules/better-sqlite3 "$work/better-sqlite3"
  rm -rf "$work/better-sqlite3/build"
  # `npm run` exports the machine's npm config (here nodedir=/usr, Node 20's headers), which
  # node-gyp would take over --nodedir: it goes, so the headers are the fetched Node's.
  (cd "$work/better-sqlite3" && env -u npm_config_nodedir -u NPM_CONFIG_NODEDIR \
    -u npm_config_target -u npm_config_runtime "$nodex" "$gyp" rebuild --release --silent \
    --nodedir="$PWD/../node" -j "$(nproc)")
  cp "$work/better-sqlite3/build/Release/better_sqlite3.node" "$built"
  if ! "$nodex" -e "require('./$built')" 2>/dev/null; then
    rm -f "$built"
    echo "better-sqlite3 was not built for Node $major's ABI $abi (node-gyp took other headers)" >&2
    exit 1
  fi
  rm -rf "$work/better-sqlite3"
fi
binding=node_modules/better-sqlite3/build/Release/better_sqlite3.node
cp "$binding" "$work/better_sqlite3-machine.node"
trap 'cp "$work/better_sqlite3-machine.node" "$binding"' EXIT
cp "$built" "$binding"
# API, documents (worker threads, PDF), the CLI, the built server as a process, the release
# tarball: every native module and every way of starting. The browser tests stay on one Node.
files=(
  test/plugins/app/auth-matrix.test.ts test/plugins/songs/songs.test.ts
  test/plugins/gigs/gigs.test.ts test/plugins/gigs/setlist.test.ts test/plugins/live/live.test.ts
  test/plugins/documents/documents.test.ts test/src/cli.test.ts test/src/db/migrations.test.ts
  test/src/server.test.ts test/src/backups.test.ts test/src/data-dir-lock.test.ts
  test/src/logs.test.ts test/scripts/release.test.ts
)
echo "Node $("$nodex" -v): ${#files[@]} test files"
PATH="$(dirname "$nodex"):$PATH" "$nodex" --conditions=bandstand-source --import tsx --test \
  --test-concurrency=2 "${files[@]}"
