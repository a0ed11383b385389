#!/usr/bin/env bash
# The suite's representative part on the other supported LTS line (docs/node-versions.md): Node 22
# unless NODE_TEST_MAJOR says otherwise, after the whole suite ran on Node 24 (.ci/run). That Node
# comes from the npm registry (scripts/fetch-node.sh, cached in .cache/). The same node_modules
# serves both: better-sqlite3 13 is a Node-API module (one binary for every Node ≥ 22, shipped in
# its npm package), so nothing is compiled or swapped; a binary that does not load stops here.
set -euo pipefail
cd "$(dirname "$0")/.."
major=${NODE_TEST_MAJOR:-22}
bin=$(bash scripts/fetch-node.sh "$major")
nodex=$bin/node
if ! "$nodex" -e "new (require('better-sqlite3'))(':memory:').prepare('select 1').get()"; then
  echo "better-sqlite3 in node_modules does not load on Node $("$nodex" -v)" >&2
  exit 1
fi
# API, documents (worker threads, PDF), the CLI, the built server as a process, the release
# tarball, the Node version check: every native module and every way of starting. The browser
# tests run on Node 24 only.
files=(
  test/plugins/app/auth-matrix.test.ts test/plugins/songs/songs.test.ts
  test/plugins/gigs/gigs.test.ts test/plugins/gigs/setlist.test.ts test/plugins/live/live.test.ts
  test/plugins/documents/documents.test.ts test/src/cli.test.ts test/src/db/migrations.test.ts
  test/src/server.test.ts test/src/backups.test.ts test/src/data-dir-lock.test.ts
  test/src/logs.test.ts test/scripts/release.test.ts test/src/node-version.test.ts
)
echo "Node $("$nodex" -v): ${#files[@]} test files"
PATH="$bin:$PATH" "$nodex" --conditions=bandstand-source --import tsx --test \
  --test-concurrency=2 "${files[@]}"
