/**
 * The web app's JavaScript budget (the first screen ≤ 100 KB gzip): read from the build's
 * manifest (dist/web-manifest.json, written by scripts/finish-web-build.mjs), gzip level 9 per
 * file, as the server's pre-compressed .gz files. A screen needs the boot script, SvelteKit's two
 * entries, the root layout (node 0) and its page node, each with every chunk it imports statically.
 */
import { readFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { projectPath } from '#src/project-path.js'

interface ManifestChunk {
  file: string
  imports?: string[]
  isEntry?: boolean
  isDynamicEntry?: boolean
  css?: string[]
}
interface WebManifest {
  boot: string
  routes: Record<string, number[]>
  vite: Record<string, ManifestChunk>
}

export interface RouteBudget {
  route: string
  files: number
  gzipBytes: number
  addedGzipBytes: number
  /** The files the route adds after the dashboard, under dist/web/. */
  addedNames: string[]
}
export interface WebBudget {
  firstScreen: {
    route: string
    files: number
    gzipBytes: number
    rawBytes: number
    /** The files themselves, under dist/web/. */
    names: string[]
  }
  routes: RouteBudget[]
}

export const FIRST_SCREEN_BUDGET = 100 * 1024

export function measureWebBundle (): WebBudget {
  const manifest = JSON.parse(
    readFileSync(projectPath('dist', 'web-manifest.json'), 'utf8')
  ) as WebManifest
  const { vite } = manifest
  const gzip = new Map<string, { raw: number; gz: number }>()
  const size = (file: string) => {
    let known = gzip.get(file)
    if (!known) {
      const bytes = readFileSync(projectPath('dist', 'web', file))
      known = { raw: bytes.length, gz: gzipSync(bytes, { level: 9 }).length }
      gzip.set(file, known)
    }
    return known
  }
  const closure = (key: string, into: Set<string>) => {
    const chunk = vite[key]
    if (!chunk || into.has(chunk.file)) return
    into.add(chunk.file)
    for (const imported of chunk.imports ?? []) closure(imported, into)
  }
  const nodeKey = (index: number) =>
    Object.keys(vite).find((key) => key.endsWith(`/nodes/${index}.js`))!

  const initial = new Set<string>([manifest.boot])
  for (const [key, chunk] of Object.entries(vite)) {
    if (chunk.isEntry && !chunk.isDynamicEntry) closure(key, initial)
  }
  closure(nodeKey(0), initial)

  const filesOf = (nodes: number[]) => {
    const files = new Set(initial)
    for (const node of nodes) closure(nodeKey(node), files)
    return files
  }
  const total = (files: Set<string>, kind: 'gz' | 'raw' = 'gz') =>
    [...files].reduce((sum, file) => sum + size(file)[kind], 0)

  const dashboard = filesOf(manifest.routes['/']!)
  const routes = Object.entries(manifest.routes).map(([route, nodes]) => {
    const files = filesOf(nodes)
    const added = new Set([...files].filter((file) => !dashboard.has(file)))
    return {
      route,
      files: files.size,
      gzipBytes: total(files),
      addedGzipBytes: total(added),
      addedNames: [...added]
    }
  })
  return {
    firstScreen: {
      route: '/',
      files: dashboard.size,
      gzipBytes: total(dashboard),
      rawBytes: total(dashboard, 'raw'),
      names: [...dashboard]
    },
    routes
  }
}

/** The web app's modules of the service worker: its registration and the update prompt. */
const WORKER_MODULES = ['src/lib/offline/start-worker.ts', 'src/lib/offline/AppUpdate.svelte']

/**
 * The service worker's share of the first screen's JavaScript: the first screen's files that
 * hold its code (the registration names /app/service-worker.js), gzip bytes. 0 B when it is all
 * loaded after the first screen (lib/offline/start-worker.ts, docs/offline.md).
 */
export function serviceWorkerInFirstScreen (): { files: string[]; bytes: number } {
  const manifest = JSON.parse(
    readFileSync(projectPath('dist', 'web-manifest.json'), 'utf8')
  ) as WebManifest
  const worker = new Set(WORKER_MODULES.map((key) => manifest.vite[key]?.file))
  const { firstScreen } = measureWebBundle()
  const files = firstScreen.names.filter((file) => {
    if (worker.has(file)) return true
    return readFileSync(projectPath('dist', 'web', file), 'utf8').includes('service-worker.js')
  })
  const bytes = files.reduce(
    (sum, file) => sum + gzipSync(readFileSync(projectPath('dist', 'web', file)), { level: 9 })
      .length,
    0
  )
  return { files, bytes }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

export function printWebBundle (): void {
  const { firstScreen, routes } = measureWebBundle()
  const verdict = firstScreen.gzipBytes <= FIRST_SCREEN_BUDGET ? '✔' : '✘'
  console.log(
    `\nweb app: first screen JS (/app/, dashboard) ${kb(firstScreen.gzipBytes)} gzip ` +
      `(${kb(firstScreen.rawBytes)} raw, ${firstScreen.files} files); budget ≤ 100 KB ${verdict}`
  )
  console.log('route (deep link)        JS gzip   files   added after the dashboard')
  for (const row of routes) {
    const path = `/app${row.route === '/' ? '/' : row.route}`
    console.log(
      `${path.padEnd(24)} ${kb(row.gzipBytes).padStart(8)}   ${String(row.files).padStart(5)}   ` +
        kb(row.addedGzipBytes).padStart(8)
    )
  }
}

if (import.meta.url === `file://${process.argv[1]}`) printWebBundle()
