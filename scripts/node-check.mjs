// Exit 0 when this Node is one Bandstand supports (package.json `engines`), 1 when it is older;
// with --refuse, an older one gets the server's one-line refusal and exit 78 instead. Plain
// JavaScript that Node 20 still runs: scripts/with-node.sh asks it before anything else.
// The same rule as src/node-version.ts (the server's and the CLI's own refusal); a test keeps the
// two in step.
import { readFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'

/** Whether `running` is below the lowest `major.minor.patch` that `engines` names. */
export function tooOld (engines, running) {
  const floors = [...engines.matchAll(/(\d+)\.(\d+)\.(\d+)/g)].map((m) => m.slice(1).map(Number))
  if (floors.length === 0) return false
  const [lowest] = floors.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2])
  const [major, minor, patch] = running.replace(/^v/, '').split('.').map(Number)
  return major < lowest[0] || (major === lowest[0] &&
    (minor < lowest[1] || (minor === lowest[1] && patch < lowest[2])))
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { engines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
  const range = engines?.node ?? ''
  if (!tooOld(range, process.versions.node)) process.exit(0)
  if (!process.argv.includes('--refuse')) process.exit(1)
  const lines = range.split('||').map((r) => r.trim().replace(/^\^(\d+\.\d+)\.\d+$/, '$1+'))
  console.error(`Bandstand needs Node ${lines.join(' or ')} (package.json engines), this is ` +
    `Node ${process.versions.node}: install a supported Node (docs/node-versions.md).`)
  process.exit(78)
}
