#!/usr/bin/env bash
# Prints the bin directory of Node <major> (22 or 24), fetched once from the npm registry and
# cached in .cache/node<major>/: the `node-linux-<arch>` package repackages the official build
# (binary and headers). Used by scripts/with-node.sh (npm start and npm run test:all on a Node
# older than 22), .ci/run (the suite on Node 24) and scripts/test-node-lts.sh (a part on Node 22):
#   PATH="$(bash scripts/fetch-node.sh 24):$PATH" npm test
# No nodejs.org download: only the npm registry is reachable from CI. Checked before it is used:
# the tarball's sha512 and sha1 against the registry's metadata (dist.integrity, dist.shasum),
# and the binary must call itself the official release of that version (process.release).
set -euo pipefail
major=${1:?usage: scripts/fetch-node.sh <major>}
cd "$(dirname "$0")/.."
case $(uname -s)/$(uname -m) in
  Linux/x86_64) arch=x64 ;;
  Linux/aarch64 | Linux/arm64) arch=arm64 ;;
  *) echo "no node-linux package for $(uname -sm): install Node $major yourself" >&2; exit 1 ;;
esac
work=$PWD/.cache/node$major
pkg=node-linux-$arch
fail () { echo "$pkg: $*" >&2; rm -rf "$work"; exit 1; }
if [ ! -x "$work/node/bin/node" ]; then
  echo "Fetching Node $major once (npm package $pkg@$major) into .cache/node$major…" >&2
  rm -rf "$work" && mkdir -p "$work"
  # The newest release of that major (no pre-releases), then its registry metadata.
  version=$(npm view "$pkg@$major" version --json | node -e '
    const all = [].concat(JSON.parse(require("fs").readFileSync(0, "utf8")))
    const key = (v) => v.split(".").map(Number)
    const cmp = (a, b) => key(a).reduce((d, n, i) => d || n - key(b)[i], 0)
    console.log(all.filter((v) => /^\d+\.\d+\.\d+$/.test(v)).sort(cmp).pop() ?? "")')
  [ -n "$version" ] || fail "no release of Node $major in the registry"
  dist=$(npm view "$pkg@$version" dist.integrity dist.shasum --json)
  tarball=$(cd "$work" && npm pack --silent "$pkg@$version" | tail -1)
  # sha512 (integrity) and sha1 (shasum) of the file on disk against the registry's metadata.
  DIST=$dist node -e '
    const { createHash } = require("crypto")
    const file = require("fs").readFileSync(process.argv[1])
    const want = JSON.parse(process.env.DIST)
    const sha512 = "sha512-" + createHash("sha512").update(file).digest("base64")
    const sha1 = createHash("sha1").update(file).digest("hex")
    if (sha512 !== want["dist.integrity"] || sha1 !== want["dist.shasum"]) process.exit(1)' \
    "$work/$tarball" || fail "$tarball does not match the registry's dist.integrity/dist.shasum"
  mkdir "$work/unpack"
  tar xzf "$work/$tarball" -C "$work/unpack" --strip-components=1
  rm "$work/$tarball"
  release=https://nodejs.org/download/release/v$version/node-v$version.tar.gz
  said=$("$work/unpack/bin/node" -p 'process.release.name + " " + process.version + " " +
    process.release.sourceUrl') || fail "bin/node does not run here"
  [ "$said" = "node v$version $release" ] || fail "bin/node says \"$said\", not Node v$version"
  # Renamed into place only once complete and checked: an interrupted fetch is not taken for a Node.
  mv "$work/unpack" "$work/node"
fi
echo "$work/node/bin"
