import { readFileSync } from 'node:fs'
import { projectPath } from './project-path.js'

/**
 * Imported first by the server and the CLI, before anything loads better-sqlite3: its Node-API
 * build (13) crashes on Node 20 (a segfault, exit 139, no message) and two of Fastify's
 * dependencies need Node 22. An older Node stops here with one line (exit 78, as the other
 * start errors). The floor is package.json's `engines` (its lowest `^major.minor.patch`), so it is
 * written once; a newer major than the ones listed is not refused (docs/node-versions.md).
 */
export function nodeTooOld (engines: string, running: string): boolean {
  const floors = [...engines.matchAll(/(\d+)\.(\d+)\.(\d+)/g)].map((m) => m.slice(1).map(Number))
  if (floors.length === 0) return false
  const lowest = floors.sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]! || a[2]! - b[2]!)[0]!
  const [major, minor, patch] = running.replace(/^v/, '').split('.').map(Number)
  return major! - lowest[0]! < 0 || (major === lowest[0] &&
    (minor! < lowest[1]! || (minor === lowest[1] && patch! < lowest[2]!)))
}

const { engines } = JSON.parse(readFileSync(projectPath('package.json'), 'utf8')) as {
  engines?: { node?: string }
}
if (engines?.node && nodeTooOld(engines.node, process.versions.node)) {
  const lines = engines.node
    .split('||')
    .map((range) => range.trim().replace(/^\^(\d+\.\d+)\.\d+$/, '$1+'))
  console.error(
    `Bandstand needs Node ${lines.join(' or ')} (package.json engines), this is ` +
      `Node ${process.versions.node}: install a supported Node (docs/node-versions.md).`
  )
  process.exit(78) // EX_CONFIG, as the other start errors
}
