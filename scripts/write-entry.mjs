// tsc keeps the source tree (src/, plugins/, schemas/) under dist/, so the server lands at
// dist/src/server.js; this writes the documented entry point dist/server.js next to it and makes
// the CLI (package.json "bin") executable.
import { chmodSync, writeFileSync } from 'node:fs'
writeFileSync(new URL('../dist/server.js', import.meta.url), "import './src/server.js'\n")
chmodSync(new URL('../dist/src/cli.js', import.meta.url), 0o755)
