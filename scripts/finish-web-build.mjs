// After `vite build` of web/ (SvelteKit, adapter-static): makes dist/web fit the API's
// Content-Security-Policy and the static file plugin (plugins/web/routes.ts).
// 1. SvelteKit's fallback index.html starts the app with an inline <script>; the CSP allows scripts
//    from 'self' only. The script is moved, unchanged, into a content-hashed file under
//    _app/immutable/ and index.html loads it with <script src>. (Its imports use absolute paths,
//    kit.paths.relative = false, and document.currentScript works the same for a classic external
//    script.)
// 2. Every text asset is stored pre-compressed (.br, .gz) so the server sends bytes, not CPU time.
// 3. The Vite manifest, the boot script and SvelteKit's route → node table go to
//    dist/web-manifest.json (outside the served folder) for `npm run bench` (bench/web-bundle.ts).
// 4. The service worker gets each route's files (below).
import { createHash } from 'node:crypto'
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

const root = new URL('..', import.meta.url).pathname
const out = join(root, 'dist', 'web')
const indexFile = join(out, 'index.html')

const html = readFileSync(indexFile, 'utf8')
const inline = [...html.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script>/g)].filter(
  (m) => !/\ssrc=/.test(m[1] ?? '')
)
if (inline.length !== 1) {
  throw new Error(`expected exactly one inline script in ${indexFile}, found ${inline.length}`)
}
const [tag, , code] = inline[0]
const hash = createHash('sha256').update(code).digest('base64url').slice(0, 10)
const bootName = `_app/immutable/entry/boot.${hash}.js`
writeFileSync(join(out, bootName), code.trim() + '\n')
writeFileSync(indexFile, html.replace(tag, `<script src="/app/${bootName}"></script>`))
// The service worker precaches the boot script too (web/src/service-worker/): it is no Vite
// output, so its name is written in here. A new boot script is a new service worker.
const workerFile = join(out, 'service-worker.js')
const worker = readFileSync(workerFile, 'utf8')
if (!worker.includes('__BANDSTAND_BOOT__')) {
  throw new Error(`the boot placeholder is missing in ${workerFile}`)
}
writeFileSync(workerFile, worker.replaceAll('__BANDSTAND_BOOT__', `/app/${bootName}`))

const kit = join(root, 'web', '.svelte-kit')
const vite = JSON.parse(
  readFileSync(join(kit, 'output', 'client', '.vite', 'manifest.json'), 'utf8')
)
// `"/gigs/[id]": [4]` in the generated client app: the route's page node (and its own layouts, if
// any).
const app = readFileSync(join(kit, 'generated', 'client-optimized', 'app.js'), 'utf8')
const dictionary = /export const dictionary = \{([\s\S]*?)\};/.exec(app)?.[1]
if (!dictionary) throw new Error('SvelteKit route dictionary not found')
const routes = Object.fromEntries(
  [...dictionary.matchAll(/"([^"]+)":\s*\[([^\n]*)\]/g)].map(([, route, nodes]) => [
    route,
    [...nodes.matchAll(/\d+/g)].map(Number)
  ])
)
// 4. The files each route's page needs beyond the shell's own preloads, for the service worker:
//    opened offline, the shell it answers names them, so that the browser fetches them from the
//    cache while the app boots, not one import level at a time after it (docs/offline.md).
const shellFiles = new Set(
  [...html.matchAll(/href="\/app\/([^"]+)"/g)].map(([, file]) => file)
)
const byFile = new Map(Object.values(vite).map((chunk) => [chunk.file, chunk]))
function routeFiles (nodes) {
  const files = new Set()
  const visit = (key) => {
    const chunk = vite[key] ?? byFile.get(key)
    if (!chunk || files.has(chunk.file)) return
    files.add(chunk.file)
    for (const css of chunk.css ?? []) files.add(css)
    for (const imported of chunk.imports ?? []) visit(imported)
  }
  for (const node of nodes) visit(`.svelte-kit/generated/client-optimized/nodes/${node}.js`)
  return [...files].filter((file) => !shellFiles.has(file)).map((file) => `/app/${file}`)
}
// `/gigs/[id]/live` → `^/gigs/[^/]+/live/?$` (the app has no rest or optional parameters); routes
// without parameters first, so that `/gigs/new` is not taken for `/gigs/[id]`.
const routeFileList = Object.entries(routes)
  .sort(([a], [b]) => (a.match(/\[/g)?.length ?? 0) - (b.match(/\[/g)?.length ?? 0))
  .map(([route, nodes]) => [
    `^/app${route.replace(/\[[^\]/]+\]/g, '[^/]+').replace(/\/$/, '')}/?$`,
    routeFiles(nodes)
  ])
  .filter(([, files]) => files.length > 0)
const placeholder = /(["'])__BANDSTAND_ROUTE_FILES__\1/
const workerWithBoot = readFileSync(workerFile, 'utf8')
if (!placeholder.test(workerWithBoot)) {
  throw new Error(`the route files placeholder is missing in ${workerFile}`)
}
writeFileSync(
  workerFile,
  workerWithBoot.replace(placeholder, () => JSON.stringify(JSON.stringify(routeFileList)))
)

writeFileSync(
  join(root, 'dist', 'web-manifest.json'),
  JSON.stringify({ boot: bootName, routes, vite }, null, 1)
)

// Last, once every file above is final.
function * files (dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) yield * files(path)
    else yield path
  }
}
for (const file of files(out)) {
  if (!/\.(m?js|css|html|svg|json|txt)$/.test(file)) continue
  const bytes = readFileSync(file)
  if (bytes.length < 512) continue
  writeFileSync(
    `${file}.br`,
    brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } })
  )
  writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }))
}

console.log(`web app built into ${relative(root, out)}/ (boot script ${bootName})`)
