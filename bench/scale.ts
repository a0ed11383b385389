// The scale part (BENCH_PARTS=scale): the read and document rows, the band export and import and
// the libreStage import, on the standard data set and on ten times it (bench/scale-data.ts), each
// scale measured in a process of its own with npm start's flags (bench/scale-measure.ts). It
// reports the ×10/×1 ratio per row: nothing may grow worse than linearly (≤ ×12), the live view
// (one gig's) not at all. BENCH_SCALE_RUNS (7) samples per row; BENCH_SCALE_FACTOR (10) the larger
// scale. Alone after a build (its measuring processes run dist/):
// `node --conditions=bandstand-source --import tsx bench/scale.ts`.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { projectPath } from '#src/project-path.js'
import { npmStartCommand } from '#test/server-process.js'
import { seedScaleData } from './scale-data.js'
import { buildScaledLibreStage } from './scale-librestage.js'
import type { ScaleFigure } from './scale-measure.js'

/** A row's ratio beyond which it grows worse than linearly with ten times the data. */
export const SCALE_LINEAR_LIMIT = 12
/** The live view depends on one gig: beyond this it grows with the band's data. */
const CONSTANT_LIMIT = 2
const factor = Number(process.env.BENCH_SCALE_FACTOR ?? 10)

async function measureAt (scale: number): Promise<ScaleFigure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bandstand-scale-'))
  try {
    let started = performance.now()
    const data = seedScaleData(join(dir, 'bandstand.db'), scale)
    const seedMs = performance.now() - started
    started = performance.now()
    const libreStage = join(dir, 'app.db')
    buildScaledLibreStage(libreStage, scale)
    console.log(`×${scale}: ${data.rows} rows seeded in ${Math.round(seedMs)} ms, the ` +
      `libreStage database in ${Math.round(performance.now() - started)} ms`)
    const environment = {
      SCALE_DATA_DIR: dir,
      SCALE_LIBRESTAGE: libreStage,
      SCALE_INFO: JSON.stringify(data)
    }
    const { env, flags } = npmStartCommand()
    // The reads as the server runs them; the transfers as the CLI does (node without flags).
    return [
      ...await measure(scale, flags, { ...env, ...environment, SCALE_PART: 'reads' }),
      ...await measure(scale, [], { ...environment, SCALE_PART: 'transfers' })
    ]
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

async function measure (scale: number, flags: string[], env: Record<string, string>) {
  // Plain node on the build (it strips the types; `#src/` resolves to dist/), as the server and
  // the CLI run: tsx compiling the sources cost each of the four processes ~0.9 CPU-s more.
  const child = spawn(process.execPath, [...flags, projectPath('bench', 'scale-measure.ts')],
    { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  const [code] = (await once(child, 'exit')) as [number | null]
  const line = /^SCALE (.*)$/m.exec(output)?.[1]
  if (code !== 0 || !line) throw new Error(`the scale ×${scale} run failed (${code}):\n${output}`)
  return JSON.parse(line) as ScaleFigure[]
}

/** The ratio's verdict: linear rows up to ×12 (at ×10), the live view up to ×2. */
export function scaleVerdict (name: string, ratio: number, scale = factor): string {
  const constant = name.includes('live view')
  const limit = constant ? CONSTANT_LIMIT : (SCALE_LINEAR_LIMIT * scale) / 10
  if (ratio <= limit) return 'ok'
  return constant ? 'GROWS (should not)' : 'WORSE THAN LINEAR'
}

export async function runScaleBench (): Promise<void> {
  const small = await measureAt(1)
  const large = await measureAt(factor)
  const cell = (ms: number) => ms.toFixed(1)
  // The verdict is taken of CPU time: on a loaded machine wall time also counts other processes.
  const kb = (bytes: number) => (bytes ? `${Math.round(bytes / 1024)} KB` : '-')
  const lines = small.map((row) => {
    const big = large.find((r) => r.name === row.name)!
    const ratio = big.cpuMs / Math.max(row.cpuMs, 0.01)
    return [row.name, cell(row.cpuMs), cell(big.cpuMs), `×${ratio.toFixed(1)}`,
      scaleVerdict(row.name, ratio), `${cell(row.ms)} / ${cell(big.ms)}`,
      `${kb(row.bytes)} → ${kb(big.bytes)}`]
  })
  const header = ['scale row', '×1 CPU ms', `×${factor} CPU ms`, 'ratio', 'verdict',
    `wall ms ×1 / ×${factor}`, 'size']
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)))
  const format = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ')
  console.log('\nCost as the data grows: ×1 (3 members, 500 songs, 300 gigs, one season) and ' +
    `×${factor}; reads: mean CPU of ${process.env.BENCH_SCALE_RUNS ?? 7} runs or more, until ` +
    `${process.env.BENCH_SCALE_READ_CPU_MS ?? 1000} ms of CPU; transfers: ` +
    'median of up to 3\n')
  console.log(format(header))
  console.log(widths.map((w) => '-'.repeat(w)).join('  '))
  for (const line of lines) console.log(format(line))
  const over = lines.filter((line) => line[4] !== 'ok').map((line) => line[0])
  console.log(over.length === 0
    ? `every row within ×${SCALE_LINEAR_LIMIT}; the live view constant`
    : `OVER BUDGET: ${over.join(', ')}`)
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runScaleBench()
