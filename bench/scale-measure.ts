// One scale of the scale part (bench/scale.ts), in a process of its own: SCALE_PART=reads (started
// with npm start's flags) measures each read with app.inject on the seeded database (no network,
// so the figure is the server's work); SCALE_PART=transfers (plain node, as the CLI runs) the band
// export, its import and the libreStage import. Prints one `SCALE {json}` line per process.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '#src/config.js'
import { openDatabase, type DatabaseHandle } from '#src/db/client.js'
import { createSession } from '#src/repositories/sessions.js'
import { buildBandExport } from '#src/repositories/band-export.js'
import { importBandExport, readBandExport } from '#src/repositories/band-import.js'
import { CLI_EXPORT_MAX_BYTES } from '#src/cli-transfer.js'
import { readLibreStage } from '#src/librestage/source.js'
import { importLibreStage } from '#src/librestage/import.js'
import type { ScaleData } from './scale-data.js'

export interface ScaleFigure {
  name: string
  /** Wall time, and the process's CPU time (all threads): the ratio is taken of the CPU time, which
   * other processes on a loaded machine disturb far less. */
  ms: number
  cpuMs: number
  /** Bytes of the answer (or of the file), to show that the data grew. */
  bytes: number
}

const runs = Number(process.env.BENCH_SCALE_RUNS ?? 7)
/**
 * A read is sampled at least `runs` times and until its samples hold this much CPU time (at most
 * `MAX_READ_SAMPLES`): a full collection comes every few small answers, and a mean over seven
 * 1.5 ms answers is whether one of them met it, and at ×10 whether one or three did. Over a second
 * of answers it is shared out alike at both scales.
 */
const readCpuMs = Number(process.env.BENCH_SCALE_READ_CPU_MS ?? 1000)
const MAX_READ_SAMPLES = 1000
/**
 * Answers not counted: the first compiles the route's serializer, the next ones its optimized code
 * (so that seven answers at ×10 are measured as warm as hundreds at ×1). BENCH_SCALE_WARMUP (5)
 * sets it; the smoke run, which only checks that every row is made, counts from the first.
 */
const WARM_UP = Number(process.env.BENCH_SCALE_WARMUP ?? 5)
const dataDir = process.env.SCALE_DATA_DIR!
const libreStageFile = process.env.SCALE_LIBRESTAGE!
const data = JSON.parse(process.env.SCALE_INFO!) as ScaleData

// BENCH_SCALE_ONLY: a regular expression picking rows by name (looking into one row).
const only = new RegExp(process.env.BENCH_SCALE_ONLY ?? '')
const what = process.env.SCALE_PART ?? 'reads'

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!

/** Runs `work` and answers its wall and CPU milliseconds. */
async function timed (work: () => unknown): Promise<{ ms: number; cpuMs: number }> {
  const cpu = process.cpuUsage()
  const started = performance.now()
  await work()
  const ms = performance.now() - started
  const used = process.cpuUsage(cpu)
  return { ms, cpuMs: (used.user + used.system) / 1000 }
}

/** Medians of the samples' wall and CPU times. */
const medians = (samples: Array<{ ms: number; cpuMs: number }>) => ({
  ms: median(samples.map((s) => s.ms)),
  cpuMs: median(samples.map((s) => s.cpuMs))
})

/**
 * The median wall time and the mean CPU time of a read. A full collection of the heap (~40 MB,
 * mostly the app itself) costs the same at both scales, but with npm start's --optimize-for-size
 * it comes every few small answers and with every large one: a median skips it at ×1 and counts it
 * at ×10. The mean shares it out over the requests that caused it, at both scales.
 */
const readFigures = (samples: Array<{ ms: number; cpuMs: number }>) => ({
  ms: median(samples.map((s) => s.ms)),
  cpuMs: samples.reduce((sum, s) => sum + s.cpuMs, 0) / samples.length
})

async function main (): Promise<ScaleFigure[]> {
  const config = loadConfig({
    DATA_DIR: dataDir,
    JWT_SECRET: 'scale-bench-secret-scale-bench-secret',
    LOG_LEVEL: 'silent'
  })
  if (what === 'transfers') {
    // The CLI's work: the database alone, as the CLI opens it (the app's import and start would
    // add ~2 CPU-s to the process for nothing).
    const handle = openDatabase(config.databaseFile)
    try {
      return only.test('band export, band import, libreStage import')
        ? await transfers(handle.sqlite)
        : []
    } finally {
      handle.close()
    }
  }
  const { buildApp } = await import('#src/app.js')
  const app = await buildApp({ config, createFirstAdmin: false, logger: false })
  await app.ready()
  const figures: ScaleFigure[] = []
  try {
    const { session } = createSession(app.db, data.adminId, new Date(), { userAgent: 'bench' })
    const cookie = `access_token=${app.signAccessToken(data.adminId, session.id).token}`
    // Every read is measured as after a write: the response cache (keyed by the database
    // revision) would otherwise answer all but the first from memory.
    app.sqlite.exec('CREATE TEMP TABLE bench_writes (n INTEGER)')
    const write = app.sqlite.prepare('INSERT INTO bench_writes (n) VALUES (1)')
    const { gigId, songId, season, calendarToken } = data
    const reads: Array<[string, string]> = [
      ['GET /songs', '/songs'],
      ['GET /gigs', '/gigs'],
      ['GET /rehearsals', '/rehearsals'],
      ['GET /users', '/users'],
      ['GET /stats (all time)', '/stats'],
      ['GET /stats?season (one season)', `/stats?season=${season}`],
      ['GET /songs/{id}/stats', `/songs/${songId}/stats`],
      ['GET /gigs/{id}/stats', `/gigs/${gigId}/stats`],
      ['GET /exports/seasons/{year}', `/exports/seasons/${season}`],
      ['GET /cal/ical/{token}', `/cal/ical/${calendarToken}`],
      ['GET /gigs/{id}/setlist.pdf', `/gigs/${gigId}/setlist.pdf`],
      ['GET /gigs/{id}/schedule.pdf', `/gigs/${gigId}/schedule.pdf`],
      ['GET /gigs/{id}/gema (GEMA report)', `/gigs/${gigId}/gema`],
      ['GET /gigs_lm/{id} (live view)', `/gigs_lm/${gigId}`]
    ]
    for (const [name, url] of reads.filter(([readName]) => only.test(readName))) {
      const samples: Array<{ ms: number; cpuMs: number }> = []
      let bytes = 0
      let sampledCpu = 0
      for (let i = 0; i < WARM_UP + runs || (sampledCpu < readCpuMs && i < MAX_READ_SAMPLES); i++) {
        write.run()
        let answer!: Awaited<ReturnType<typeof app.inject>>
        const chunks: Buffer[] = []
        // The bytes as a socket takes them: without payloadAsStream, inject also decodes the
        // answer into a string (a client's work, ~30 ms for a megabyte list with its collection).
        const time = await timed(async () => {
          answer = await app.inject({
            method: 'GET', url, headers: { cookie }, payloadAsStream: true
          })
          for await (const chunk of answer.stream()) chunks.push(chunk as Buffer)
        })
        const body = Buffer.concat(chunks)
        if (answer.statusCode !== 200) {
          throw new Error(`${name} answered ${answer.statusCode}: ${body.toString().slice(0, 200)}`)
        }
        bytes = body.length
        if (i >= WARM_UP) {
          samples.push(time)
          sampledCpu += time.cpuMs
        }
      }
      figures.push({ name, ...readFigures(samples), bytes })
    }
  } finally {
    await app.close()
  }
  return figures
}

/** The band export, its import into a new database, and the libreStage import, as the CLI does. */
async function transfers (sqlite: DatabaseHandle['sqlite']): Promise<ScaleFigure[]> {
  const scratch = mkdtempSync(join(tmpdir(), 'bandstand-scale-'))
  const exportFile = join(scratch, 'export.json')
  const now = new Date()
  try {
    const exportTimes = []
    let exportBytes = 0
    for (let i = 0; i < Math.max(1, Math.min(runs, 3)); i++) {
      rmSync(exportFile, { force: true })
      exportTimes.push(await timed(() => {
        const document = buildBandExport(sqlite, { now, maxBytes: CLI_EXPORT_MAX_BYTES })
        const text = JSON.stringify(document)
        writeFileSync(exportFile, text)
        exportBytes = Buffer.byteLength(text)
      }))
    }
    const timeInto = async (name: string, work: (file: string) => void) => {
      const samples = []
      for (let i = 0; i < Math.max(1, Math.min(runs, 3)); i++) {
        // A new, migrated database each time (an import needs one without band data): opening
        // and migrating it is not counted.
        const file = join(scratch, `${name}-${i}.db`)
        openDatabase(file).close()
        samples.push(await timed(() => work(file)))
      }
      return medians(samples)
    }
    const importTimes = await timeInto('import', (file) => {
      const handle = openDatabase(file)
      try {
        importBandExport(handle, readBandExport(exportFile), { now })
      } finally {
        handle.close()
      }
    })
    const libreStageTimes = await timeInto('librestage', (file) => {
      const source = readLibreStage(libreStageFile)
      const handle = openDatabase(file)
      try {
        importLibreStage(handle, source, { now, baseUrl: 'http://localhost' })
      } finally {
        handle.close()
      }
    })
    return [
      { name: 'band export (bandstand export)', ...medians(exportTimes), bytes: exportBytes },
      { name: 'band import (bandstand import)', ...importTimes, bytes: exportBytes },
      { name: 'libreStage import', ...libreStageTimes, bytes: 0 }
    ]
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

console.log(`SCALE ${JSON.stringify(await main())}`)
