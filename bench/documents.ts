// Document and calendar benchmark: median render times of the pure renderers, and how GET /health
// answers while four setlist PDFs render at once on a real listening server. Run alone with `node
// --import tsx bench/documents.ts`; bench/run.ts calls runDocumentBench().
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { buildApp } from '#src/app.js'
import { loadConfig } from '#src/config.js'
import { gigs, setlistEntries, setlistSets, songs, users } from '#src/db/schema.js'
import { renderSetlistPdf } from '#src/services/setlist-pdf.js'
import { renderSchedulePdf } from '#src/services/schedule-pdf.js'
import { renderGemaXlsx } from '#src/services/gema-xlsx.js'
import { renderIcal, type CalendarGig, type CalendarRehearsal } from '#src/services/ical.js'
import { prepareLogo } from '#src/services/logo.js'
import { twoColourPng } from '#test/image-fixtures.js'
import { createSession } from '#src/repositories/sessions.js'
import { bigGig, contextFixture } from '#test/document-fixtures.js'

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

// BENCH_DOC_RUNS shortens the CI smoke run; the figures in the README use the default.
const RUNS = Number(process.env.BENCH_DOC_RUNS ?? 20)

async function timeIt (
  label: string,
  fn: () => unknown,
  iterations = RUNS,
  warmup = Math.min(5, RUNS)
): Promise<number> {
  for (let i = 0; i < warmup; i++) await fn()
  const samples: number[] = []
  for (let i = 0; i < iterations; i++) {
    const start = performance.now()
    await fn()
    samples.push(performance.now() - start)
  }
  const result = median(samples)
  console.log(
    `${label.padEnd(44)} median ${result.toFixed(1).padStart(7)} ms   (min ` +
      `${Math.min(...samples).toFixed(1)}, max ${Math.max(...samples).toFixed(1)})`
  )
  return result
}

function calendarEvents (count: number): { gigs: CalendarGig[]; rehearsals: CalendarRehearsal[] } {
  const gigList: CalendarGig[] = []
  const rehearsalList: CalendarRehearsal[] = []
  for (let i = 0; i < count; i++) {
    const date = new Date(Date.UTC(2026, 0, 1) + i * 86_400_000).toISOString().slice(0, 10)
    if (i % 2 === 0) {
      gigList.push({
        id: i,
        name: `Hochzeit Müller-Lüdenscheidt Nr. ${i}`,
        date,
        kind: 'Hochzeit',
        status: i % 10 === 0 ? 'cancelled' : 'confirmed',
        venueName: 'Schloss Weißenstein',
        venueAddress: 'Schloßstraße 1',
        venueCity: 'Großheubach',
        getInTime: '16:00',
        soundcheckTime: '17:30',
        doorsTime: '19:00',
        startTime: '20:00',
        endTime: '01:00',
        notes:
          'Parken hinter der Bühne; Strom über die Steckdose links, Catering ab 18 ' +
          'Uhr, bitte Notenständer mitbringen.',
        sequence: 2,
        updatedAt: '2026-01-01T00:00:00.000Z'
      })
    } else {
      rehearsalList.push({
        id: i,
        date,
        startTime: '19:30',
        endTime: '22:00',
        location: 'Proberaum Keller, Hauptstraße 5',
        notes: 'Neue Stücke: Über den Wolken',
        sequence: 0,
        updatedAt: '2026-01-01T00:00:00.000Z'
      })
    }
  }
  return { gigs: gigList, rehearsals: rehearsalList }
}

/** A 256-pixel two-colour logo, prepared as at upload. */
function logo () {
  const prepared = prepareLogo(twoColourPng([200, 40, 90], [250, 250, 250], 256))
  if (!prepared.ok) throw new Error(prepared.message)
  return { accent: prepared.accent, watermark: prepared.watermark }
}

/**
 * Latency of GET /health while `parallel` setlist PDFs (60 songs) render, through a real listening
 * server.
 */
async function healthUnderPdfLoad (
  parallel = 4,
  rounds = 10
): Promise<{
  p50: number
  p99: number
  max: number
  samples: number
  pdfs: number
  loopDelayMaxMs: number
  loopDelayP99Ms: number
}> {
  const dir = mkdtempSync(join(tmpdir(), 'bandstand-bench-'))
  const config = loadConfig({
    DATA_DIR: dir,
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret',
    LOG_LEVEL: 'silent'
  })
  const app = await buildApp({ config, createFirstAdmin: false, logger: false })
  try {
    const stamp = new Date().toISOString()
    const user = app.db
      .insert(users)
      .values({
        username: 'bench',
        displayName: 'Bench',
        passwordHash: 'x',
        createdAt: stamp,
        updatedAt: stamp
      })
      .returning()
      .get()
    const gig = app.db
      .insert(gigs)
      .values({
        name: 'Benchmark-Gig',
        date: '2026-06-13',
        startTime: '20:00',
        status: 'confirmed',
        createdAt: stamp,
        updatedAt: stamp
      })
      .returning()
      .get()
    app.db.transaction((tx) => {
      for (let s = 0; s < 4; s++) {
        const set = tx
          .insert(setlistSets)
          .values({ gigId: gig.id, position: s, name: `Set ${s + 1}` })
          .returning()
          .get()
        for (let e = 0; e < 15; e++) {
          const song = tx
            .insert(songs)
            .values({
              title: `Titel ${s * 15 + e + 1} – Grüße aus Übersee`,
              durationSeconds: 210,
              leadSinger: ['Anna', 'Björn'][e % 2]!,
              key: 'G-Dur',
              createdAt: stamp,
              updatedAt: stamp
            })
            .returning()
            .get()
          tx.insert(setlistEntries)
            .values({ gigId: gig.id, setId: set.id, position: e, songId: song.id })
            .run()
        }
      }
    })
    const { session } = createSession(app.db, user.id, new Date(), { userAgent: 'bench' })
    const cookie = `access_token=${app.signAccessToken(user.id, session.id).token}`
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    const pdf = async () => {
      const res = await fetch(`${address}/gigs/${gig.id}/setlist.pdf`, { headers: { cookie } })
      if (res.status !== 200) throw new Error(`setlist.pdf answered ${res.status}`)
      await res.arrayBuffer()
    }
    // Warm-up: every worker of the pool started and has rendered once.
    for (let i = 0; i < 2; i++) await Promise.all(Array.from({ length: parallel }, () => pdf()))
    const loopDelay = monitorEventLoopDelay({ resolution: 10 })
    loopDelay.enable()
    let rendering = true
    let pdfs = 0
    const load = (async () => {
      for (let r = 0; r < rounds; r++) {
        await Promise.all(Array.from({ length: parallel }, () => pdf().then(() => pdfs++)))
      }
      rendering = false
    })()
    const latencies: number[] = []
    // eslint-disable-next-line no-unmodified-loop-condition -- the render task above clears it
    while (rendering) {
      const start = performance.now()
      const res = await fetch(`${address}/health`)
      await res.arrayBuffer()
      latencies.push(performance.now() - start)
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    await load
    loopDelay.disable()
    return {
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: Math.max(...latencies),
      samples: latencies.length,
      pdfs,
      loopDelayMaxMs: loopDelay.max / 1e6,
      loopDelayP99Ms: loopDelay.percentile(99) / 1e6
    }
  } finally {
    await app.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

export async function runDocumentBench (): Promise<Record<string, number>> {
  console.log(
    '\n## Documents and calendar (render functions called directly; 20 runs after 5 warm-up runs)'
  )
  const gig = bigGig(4, 15)
  const live = bigGig(4, 15)
  live.liveUsed = true
  live.sets
    .flatMap((s) => s.entries)
    .forEach((e, i) => {
      e.status = i % 9 === 0 ? 'skipped' : 'played'
      e.rating = (i % 3) + 1
    })
  gig.schedule.push({
    id: 1,
    at: '2026-06-13T18:00',
    title: 'Abendessen',
    who: 'Band',
    where: 'Küche',
    notes: null
  })
  const ctx = contextFixture({ logo: logo() })
  const events = calendarEvents(500)
  const results: Record<string, number> = {}
  results.setlistPdf = await timeIt('setlist PDF, 60 songs in 4 sets (print)', () =>
    renderSetlistPdf(gig, ctx)
  )
  results.setlistPdfStage = await timeIt('setlist PDF, 60 songs, stage + live record', () =>
    renderSetlistPdf(live, ctx, 'stage')
  )
  results.schedulePdf = await timeIt('schedule PDF with logo watermark', () =>
    renderSchedulePdf(gig, ctx)
  )
  results.gema = await timeIt('GEMA xlsx, 60 works', () => renderGemaXlsx(live, ctx))
  results.calendar = await timeIt('iCal feed, 500 events', () =>
    renderIcal({
      calendarName: 'Bench',
      timezone: 'Europe/Berlin',
      uidDomain: 'bench',
      now: new Date(),
      ...events
    })
  )
  const health = await healthUnderPdfLoad()
  console.log(
    `GET /health while 4 setlist PDFs render in parallel: p50 ${health.p50.toFixed(1)} ms, ` +
      `p99 ${health.p99.toFixed(1)} ms, max ${health.max.toFixed(1)} ms ` +
      `(${health.samples} requests, ${health.pdfs} PDFs); main event-loop delay ` +
      `p99 ${health.loopDelayP99Ms.toFixed(1)} ms, max ${health.loopDelayMaxMs.toFixed(1)} ms`
  )
  results.healthP50 = health.p50
  results.healthP99 = health.p99
  return results
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runDocumentBench()
}
