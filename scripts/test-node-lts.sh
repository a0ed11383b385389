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
  test/auth-matrix.test.ts test/songs.test.ts test/gigs.test.ts test/setlist.test.ts
  test/live.test.ts test/documents.test.ts test/cli.test.ts test/migrations.test.ts
  test/server.test.ts test/backups.test.ts test/data-dir-lock.test.ts test/logs.test.ts
  test/release.test.ts test/node-version.test.ts
)
echo "Node $("$nodex" -v): ${#files[@]} test files"
PATH="$bin:$PATH" "$nodex" --conditions=bandstand-source --import tsx --test \
  --test-concurrency=2 "${files[@]}"
