// The setlist editor with 200 entries: the main thread's work per keyboard move
// (ArrowDown on a focused drag handle), read from Chromium's performance trace, beside the same
// moves in a 20-entry setlist in the same run (the machine is shared), on the same server,
// repertoire and logged-in page (only the setlist differs). Reported, never asserted.
// Needs the built app (`npm run build`) and Debian's Chromium. Run alone with
// `node --conditions=bandstand-source --import tsx bench/web-setlist-editor.ts`; bench/run.ts calls
// runSetlistEditorBench().
//
// Every figure is the renderer main thread's thread time (what it ran, not the time the shared
// machine took it away), per keypress:
// - "the move's frame" (the figure the < 16 ms target is about): the task that dispatched the
//   keydown (the handler, Svelte's update of the DOM, the announcement, the re-focus with the
//   style and layout it forces), the task that dispatched the keyup, and the task that rendered the
//   next frame (animation frame, style, layout, pre-paint, paint, layerize, commit) without the
//   benchmark's own requestAnimationFrame callback in it. Left out: the benchmark's own tasks (the
//   DevTools protocol messages, Playwright's page.evaluate() and its two animation-frame callbacks
//   per move) and later frames. Those are printed apart ("later frames": frames after the move's
//   own that laid out or painted anything, each a frame of its own; after a move that scrolls the
//   page, Chromium lays out the rows that came into sight, `content-visibility: auto`).
// - "every task between two keydowns" (the method until 2026-11-25, kept to compare): the sum of
//   all top-level tasks of the main thread from the one that dispatched a keydown up to the next
//   keydown's; that adds the benchmark's own tasks and the later frames to the figure above.
// Both sizes do the same kind of move: the focused entry steps down within its set (on ArrowDown
// the keyed each block moves the focused row itself, so the handle is focused again; ArrowUp moves
// the neighbour and costs about the same, its style and layout falling into the frame instead).
// A set of the 20-entry list has 5 entries, so when the entry is last in its set the benchmark
// focuses the set's first handle again before the next key (marked in the trace; that focus and
// its frame are in the second figure only). Until 2026-11-25 it pressed on, and 21 of the 40 keys
// of the 20-entry run moved nothing (the entry was last in the setlist).
import { pathToFileURL } from 'node:url'
import { dayFromNow, type ApiSession } from '#test/browser/api-client.js'
import { ADMIN_PASSWORD } from '#test/browser/band-fixture.js'
import type { Browser, Page } from 'playwright-core'
import { chooseEnglish, logInAs, openApp, DESKTOP } from '#test/browser/harness.js'
import type { TraceEvent } from './chromium-trace.js'
import { benchBand, benchBrowser, endBrowserParts, releaseBrowser } from './shared-browser.js'

const SETS = 4
/** The same moves in a 20-song setlist, in the same run: the machine is shared and noisy. */
const BASELINE_ENTRIES = 20
const MOVES = Number(process.env.BENCH_EDITOR_MOVES ?? 40)
const FRAME_MS = 16

interface Stats {
  median: number
  p95: number
  max: number
  /** Moves over FRAME_MS. */
  over: number
}

export interface EditorBenchResult {
  entries: number
  moves: number
  /** The move's frame (ms): keydown and keyup tasks and the next frame's rendering. */
  frameMs: Stats
  /** Medians of its parts (ms): the keydown task (handler and Svelte's update), the rendering. */
  parts: { keyMs: number; renderMs: number }
  /** Later frames that drew (rows scrolled into sight): moves that had any, the largest (ms). */
  later: { moves: number; maxMs: number }
  /** Every main-thread task from one keydown to the next (the earlier method). */
  betweenKeysMs: Stats
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}
const round = (ms: number) => Math.round(ms * 10) / 10
const stats = (values: number[]): Stats => ({
  median: round(percentile(values, 50)),
  p95: round(percentile(values, 95)),
  max: round(Math.max(...values)),
  over: values.filter((ms) => ms > FRAME_MS).length
})

/**
 * One server, repertoire and logged-in page for both sizes: only the setlist's length differs
 * between them (and a server start, a Chromium launch and a login are paid once). The server is
 * the bench's shared band (bench/shared-browser.ts), whose admin plans here.
 */
interface EditorBand {
  base: string
  browser: Browser
  page: Page
  admin: ApiSession
  /** The repertoire: as many songs as the longer setlist has entries. */
  songIds: number[]
}

async function startEditorBand (songs: number): Promise<EditorBand & { stop(): Promise<void> }> {
  const band = await benchBand()
  const browser = await benchBrowser()
  const stop = () => releaseBrowser(browser)
  try {
    const songIds: number[] = []
    for (let i = 0; i < songs; i++) {
      const song = await band.admin.ok('POST', '/songs', {
        title: `Song ${String(i + 1).padStart(3, '0')}`,
        artist: 'Bench Band',
        durationSeconds: 180 + (i % 90),
        status: 'ready'
      })
      songIds.push(song.id)
    }
    const { page } = await openApp(browser, band.base, DESKTOP)
    await page.goto(`${band.base}/app/login`)
    await chooseEnglish(page)
    await logInAs(page, band.base, 'admin', ADMIN_PASSWORD)
    return { base: band.base, browser, page, admin: band.admin, songIds, stop }
  } catch (error) {
    await stop()
    throw error
  }
}

export async function measureSetlistEditor (
  band: EditorBand,
  entries: number
): Promise<EditorBenchResult> {
  const { admin, browser, page } = band
  const ids = band.songIds.slice(0, entries)
  const gig = await admin.ok('POST', '/gigs', {
    name: 'Long night',
    date: dayFromNow(10),
    startTime: '19:00'
  })
  const perSet = entries / SETS
  await admin.ok('PUT', `/gigs/${gig.id}/setlist`, {
    version: 0,
    sets: Array.from({ length: SETS }, (_, s) => ({
      name: `Set ${s + 1}`,
      entries: ids.slice(s * perSet, (s + 1) * perSet).map((songId) => ({ songId }))
    }))
  })

  await page.goto(`${band.base}/app/gigs/${gig.id}/setlist`)
  await page.locator('[data-entry]').nth(entries - 1).waitFor()
  const firstHandle = page.locator('ol.entries').first().locator('.handle').first()
  await firstHandle.focus()
  const frames = () =>
    page.evaluate(
      () =>
        new Promise<void>((resolve) =>
          requestAnimationFrame(() => requestAnimationFrame(() => resolve()))
        )
    )
  await frames()

  await browser.startTracing(page, {
    categories: [
      'devtools.timeline',
      'disabled-by-default-devtools.timeline',
      'disabled-by-default-devtools.timeline.frame',
      'blink.user_timing',
      'toplevel'
    ]
  })
  let position = 0
  for (let i = 0; i < MOVES; i++) {
    if (position === perSet - 1) {
      // Marked in the trace: what follows is the benchmark's, not the move's.
      await page.evaluate((name) => performance.mark(name), REFOCUS)
      await firstHandle.focus()
      position = 0
    }
    await page.keyboard.press('ArrowDown')
    position += 1
    await frames()
  }
  const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as {
    traceEvents: TraceEvent[]
  }
  return { entries, moves: MOVES, ...analyse(trace.traceEvents) }
}

const REFOCUS = 'bench: focus the first handle again'
const isDispatch = (e: TraceEvent, type: string) =>
  e.name === 'EventDispatch' && e.args?.data?.type === type

/** Per keydown: the move's frame and every task up to the next keydown (see the top). */
function analyse (events: TraceEvent[]): Omit<EditorBenchResult, 'entries' | 'moves'> {
  const main = events.find(
    (e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain' &&
      events.some((k) => k.pid === e.pid && k.tid === e.tid && isDispatch(k, 'keydown'))
  )
  if (!main) throw new Error('no renderer main thread with keydown events in the trace')
  const onMain = events
    .filter((e) => e.pid === main.pid && e.tid === main.tid)
    .sort((a, b) => a.ts - b.ts)
  const tasks = onMain.filter((e) => e.ph === 'X' && e.name === 'RunTask' && e.dur !== undefined)
  const within = (task: TraceEvent, e: TraceEvent) => e.ts >= task.ts && e.ts <= task.ts + task.dur!
  const taskOf = (e: TraceEvent) => tasks.findLast((task) => task.ts <= e.ts)!
  const ms = (e: TraceEvent) => (e.tdur ?? e.dur!) / 1000
  const keydowns = onMain.filter((e) => isDispatch(e, 'keydown'))
  const keyups = onMain.filter((e) => isDispatch(e, 'keyup'))
  const frameStarts = onMain.filter((e) => e.name === 'BeginMainThreadFrame')
  // The benchmark's own requestAnimationFrame callbacks (the editor requests none for a key).
  const callbacks = onMain.filter((e) => e.name === 'FireAnimationFrame' && e.ph === 'X')
  const rendering = (task: TraceEvent) =>
    ms(task) - callbacks.filter((c) => within(task, c)).reduce((sum, c) => sum + ms(c), 0)
  // A later frame that laid out or painted something (the benchmark's second animation frame
  // only runs its callback and commits).
  const drawing = onMain.filter((e) => (e.name === 'Layout' || e.name === 'Paint') && e.ph === 'X')
  const draws = (task: TraceEvent) => drawing.some((e) => within(task, e))

  const refocus = events.filter((e) => e.pid === main.pid && e.name === REFOCUS)

  const frame: number[] = []
  const keyParts: number[] = []
  const renderParts: number[] = []
  /** Per move, each later frame that drew something. */
  const laterFrames: number[][] = []
  const betweenKeys: number[] = []
  keydowns.forEach((key, i) => {
    const keyTask = taskOf(key)
    const end = keydowns[i + 1] ? taskOf(keydowns[i + 1]!).ts : Infinity
    // The move's own work ends where the benchmark focuses a handle again.
    const ownEnd = Math.min(end, ...refocus.filter((e) => e.ts > keyTask.ts).map((e) => e.ts))
    const inWindow = (e: TraceEvent) => e.ts > keyTask.ts + keyTask.dur! && e.ts < ownEnd
    const keyup = keyups.find(inWindow)
    const frameTasks = [...new Set(frameStarts.filter(inWindow).map(taskOf))]
    const render = frameTasks[0] ? rendering(frameTasks[0]) : 0
    keyParts.push(ms(keyTask))
    renderParts.push(render)
    frame.push(ms(keyTask) + (keyup ? ms(taskOf(keyup)) : 0) + render)
    laterFrames.push(frameTasks.slice(1).filter(draws).map(rendering))
    betweenKeys.push(
      tasks
        .filter((task) => task.ts >= keyTask.ts && task.ts < end)
        .reduce((sum, task) => sum + ms(task), 0)
    )
  })
  const later = laterFrames.filter((list) => list.length > 0).flat()
  return {
    frameMs: stats(frame),
    parts: { keyMs: round(percentile(keyParts, 50)), renderMs: round(percentile(renderParts, 50)) },
    later: {
      moves: laterFrames.filter((list) => list.length > 0).length,
      maxMs: later.length ? round(Math.max(...later)) : 0
    },
    betweenKeysMs: stats(betweenKeys)
  }
}

export async function runSetlistEditorBench (): Promise<void> {
  const band = await startEditorBand(200)
  let baseline: EditorBenchResult
  let result: EditorBenchResult
  try {
    baseline = await measureSetlistEditor(band, BASELINE_ENTRIES)
    result = await measureSetlistEditor(band, 200)
  } finally {
    await band.stop()
  }
  const line = (r: EditorBenchResult, figure: Stats) =>
    `${String(r.entries).padStart(3)} entries: median ${figure.median} ms, p95 ${figure.p95} ms, ` +
    `max ${figure.max} ms, ${figure.over} of ${r.moves} over ${FRAME_MS} ms`
  const parts = (r: EditorBenchResult) =>
    `keydown task ${r.parts.keyMs} ms + frame ${r.parts.renderMs} ms (medians); later frames ` +
    `in ${r.later.moves} of ${r.moves} moves` + (r.later.moves ? `, max ${r.later.maxMs} ms` : '')
  console.log(
    '\nweb app: setlist editor, main-thread work per keyboard move (ArrowDown on a focused ' +
      'handle; Chromium trace, thread time)'
  )
  console.log(
    " the move's frame (keydown and keyup tasks, the next frame's style, layout, paint; " +
      "without the benchmark's own tasks):"
  )
  console.log(`  ${line(baseline, baseline.frameMs)}; ${parts(baseline)}`)
  console.log(
    `  ${line(result, result.frameMs)}; ${parts(result)}; target p95 < ${FRAME_MS} ms ` +
      (result.frameMs.p95 < FRAME_MS ? '✔' : '✘')
  )
  console.log(
    `  200 vs ${BASELINE_ENTRIES} entries (same run): median ×` +
      `${(result.frameMs.median / baseline.frameMs.median).toFixed(2)}`
  )
  console.log(
    ' every main-thread task from one keydown to the next (the earlier method; adds the ' +
      "benchmark's evaluate and animation-frame tasks and later frames):"
  )
  console.log(`  ${line(baseline, baseline.betweenKeysMs)}`)
  console.log(`  ${line(result, result.betweenKeysMs)}`)
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runSetlistEditorBench().finally(endBrowserParts)
}
