#!/usr/bin/env bash
# CI's check of the Containerfile's runtime stage without a container engine (base images cannot
# be pulled here): replays its steps in a clean directory and starts the server from it.
#   usage: scripts/container-replay.sh <bandstand-x.y.z.tgz>   (made by npm run release)
# As in the image: the app in a read-only directory owned by root, the server as uid/gid 1000
# (the `node` user of the node images) when run as root, a writable data directory (/data) that is
# the only place written, the same environment and node flags, the HEALTHCHECK's command.
set -euo pipefail
tarball=$(readlink -f "$1")
root=$(mktemp -d)
chmod 755 "$root"
app=$root/app
data=$root/data
cleanup() { [ -n "${pid:-}" ] && kill "$pid" 2>/dev/null || true; chmod -R u+w "$root"; rm -rf "$root"; }
trap cleanup EXIT

# Build stage's result: the release unpacked and its production dependencies installed (offline,
# from the npm cache the checkout's install filled). better-sqlite3 13 brings its Node-API binary
# in its npm package: nothing to compile, the same as in the build stage.
mkdir "$app"
tar xzf "$tarball" -C "$app" --strip-components=1
(cd "$app" && npm ci --omit=dev --ignore-scripts --offline --no-audit --no-fund --loglevel=error)
for dev in typescript vite eslint tsx; do
  if [ -e "$app/node_modules/$dev" ]; then echo "dev dependency $dev installed" >&2; exit 1; fi
done
echo "installed: npm ci --omit=dev"

# Runtime stage: COPY --chown=root:root --chmod=a-w /app; /data owned by the user, 0700.
run_as=()
if [ "$(id -u)" -eq 0 ]; then
  chown -R 0:0 "$app"
  mkdir -m 700 "$data" && chown 1000:1000 "$data"
  run_as=(setpriv --reuid=1000 --regid=1000 --clear-groups)
else
  mkdir -m 700 "$data"
fi
chmod -R a-w "$app"
touch "$root/started"

# The documented install puts the CLI on PATH (docs/deployment.md → Install a release).
mkdir "$root/bin" && ln -s "$app/dist/src/cli.js" "$root/bin/bandstand"
PATH="$root/bin:$PATH" bandstand --help | grep -q '^Usage: bandstand' && echo "bandstand on PATH"

port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
env=(env -i "PATH=$PATH" NODE_ENV=production DATA_DIR="$data" HOST=127.0.0.1 PORT="$port"
  LOG_FORMAT=json MALLOC_MMAP_THRESHOLD_=32768)
# ENTRYPOINT tini, CMD node … dist/server.js, WORKDIR /app
(cd "$app" && exec "${run_as[@]}" "${env[@]}" node --max-old-space-size=128 \
  --no-maglev --optimize-for-size dist/server.js > "$root/server.log" 2>&1) &
pid=$!
# HEALTHCHECK CMD (as the image runs it: as the user, with the image's environment)
healthcheck=(node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))")
for _ in $(seq 1 150); do
  if "${run_as[@]}" "${env[@]}" "${healthcheck[@]}"; then healthy=1; break; fi
  if ! kill -0 "$pid" 2>/dev/null; then break; fi
  sleep 0.2
done
if [ -z "${healthy:-}" ]; then echo "the server did not become healthy:" >&2; cat "$root/server.log" >&2; exit 1; fi
echo "healthy: HEALTHCHECK passed"
status=$(node -e "fetch('http://127.0.0.1:$port/app/').then(r=>console.log(r.status))")
[ "$status" = 200 ] || { echo "web app: $status" >&2; exit 1; }
echo "web app served"
[ -s "$data/initial-admin-password" ] && echo "first password kept in /data"

kill -TERM "$pid"
wait "$pid" && code=0 || code=$?
pid=
[ "$code" -eq 0 ] || { echo "exit code $code:" >&2; cat "$root/server.log" >&2; exit 1; }
written=$(find "$root" -newer "$root/started" -not -path "$data*" -not -path "$root/bin*" \
  -not -name server.log -not -path "$root" | head -5)
[ -z "$written" ] || { echo "written outside /data: $written" >&2; exit 1; }
[ ! -e "$data/bandstand.lock" ] || { echo "lock left behind" >&2; exit 1; }
echo "stopped cleanly; nothing written outside /data"
