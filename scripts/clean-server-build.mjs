// tsc writes dist/ but never deletes: a module moved or removed in the sources would stay in
// dist/ as a stale copy, and ship in the release tarball (scripts/release.mjs packs all of dist/).
// Only the server's output folders go; dist/web is the web build's, dist/screenshots the tests'.
import { rmSync } from 'node:fs'
for (const folder of ['src', 'plugins', 'schemas']) {
  rmSync(new URL(`../dist/${folder}`, import.meta.url), { recursive: true, force: true })
}
