/**
 * Fewer, larger modules for the app's start (docs/offline.md): Rollup's default split
 * gave every start ~30 files before the page's own; the browser handles every module response as
 * a task of its own (~4 ms each on a phone, CPU 4×), a quarter of the live page's offline open.
 * One chunk, `start`, holds every module that every start evaluates anyway: those reached by
 * static imports from SvelteKit's client entry, the generated app, the root layout or the root
 * error page (Kit loads both at start). Nothing loaded lazily joins it, so no screen loads more
 * bytes (the first screen's budget is 100 KB gzip, bench/web-bundle.ts); one gzip stream instead
 * of thirty is also ~9 KB smaller. The entry modules and route nodes stay chunks of their own
 * (SvelteKit finds them by name in Vite's manifest). The set is closed under static imports, so
 * no chunk cycle and no change of evaluation order among its members can arise.
 * A chunk of the live page's own modules was tried: Rollup pulls a manual chunk's unassigned
 * imports into it, and the chart code the song pages share came along (+5–9 KB on four routes).
 */
import type { Rollup } from 'vite'

type GetModuleInfo = Rollup.GetModuleInfo

const NODES = '.svelte-kit/generated/client-optimized/nodes/'
const isNode = (id: string, index?: number) =>
  id.includes(NODES) && (index === undefined || id.endsWith(`${NODES}${index}.js`))
const isStartRoot = (id: string) =>
  id.endsWith('/@sveltejs/kit/src/runtime/client/entry.js') ||
  id.endsWith('.svelte-kit/generated/client-optimized/app.js') ||
  isNode(id, 0) ||
  isNode(id, 1)

/** Every module reached from `roots` by static imports, the roots included. */
function staticClosure (roots: string[], info: GetModuleInfo): Set<string> {
  const seen = new Set<string>()
  const stack = [...roots]
  while (stack.length > 0) {
    const id = stack.pop()!
    if (seen.has(id)) continue
    seen.add(id)
    stack.push(...(info(id)?.importedIds ?? []))
  }
  return seen
}

export function startChunks (): Rollup.GetManualChunk {
  // One plan per build (Kit builds the server and the client with the same config; the server's
  // graph has no client nodes, so nothing is grouped there).
  const plans = new WeakMap<GetModuleInfo, Map<string, string>>()
  const plan = (info: GetModuleInfo, ids: Iterable<string>) => {
    const all = [...ids]
    const start = staticClosure(all.filter(isStartRoot), info)
    const result = new Map<string, string>()
    for (const id of start) if (!isStartRoot(id)) result.set(id, 'start')
    return result
  }
  return (id, { getModuleInfo, getModuleIds }) => {
    let groups = plans.get(getModuleInfo)
    if (!groups) plans.set(getModuleInfo, (groups = plan(getModuleInfo, getModuleIds())))
    return groups.get(id)
  }
}
