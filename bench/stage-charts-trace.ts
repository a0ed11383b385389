// The main thread's own work for the stage chart's timed actions (bench/stage-charts.ts), from a
// Chromium trace: per click (and per page turn), the self time of each kind of event (script,
// style, layout, HTML parsing, paint) between the action and the first layout after it. Thread
// time, so a busy machine inflates it far less than the wall-clock figures
// (docs/performance.md). Not part of `npm run bench`; alone, after a build:
// `node --conditions=bandstand-source --import tsx bench/stage-charts-trace.ts [rate] [clicks]`.
import { dayFromNow } from '#test/browser/api-client.js'
import { startBand } from '#test/browser/band-fixture.js'
import { launchBrowser } from '#test/browser/harness.js'
import { phoneOf } from '#test/browser/live-fixture.js'
import { chartOf } from './stage-charts.js'
import type { TraceEvent } from './chromium-trace.js'

const RATE = Number(process.argv[2] ?? 1)
const CLICKS = Number(process.argv[3] ?? 12)

// Each action between two marks; the second after a task (Svelte's update has run) and a forced
// layout, as the bench times it.
const timed = (action: string, n: number) => `(async () => {
  const pager = document.querySelector('.pager')
  performance.mark('a${n}');
  ${action};
  await new Promise((r) => {
    const c = new MessageChannel(); c.port1.onmessage = r; c.port2.postMessage(0)
  })
  void pager.scrollHeight
  performance.mark('b${n}');
  await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)))
  const busy = () => document.querySelector('.chart[aria-busy]')
  while (busy()) await new Promise((r) => setTimeout(r, 5))
  await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)))
})()`
const click = (name: string) => '[...document.querySelectorAll("button")]' +
  `.find((b) => b.textContent.trim() === ${JSON.stringify(name)}).click()`

const GROUPS: Record<string, string[]> = {
  script: ['FunctionCall', 'EvaluateScript', 'V8.Execute', 'EventDispatch', 'TimerFire',
    'FireAnimationFrame', 'v8.run', 'RunMicrotasks', 'V8.GCScavenger', 'MinorGC', 'MajorGC'],
  html: ['ParseHTML'],
  style: ['UpdateLayoutTree', 'RecalculateStyles', 'ScheduleStyleRecalculation'],
  layout: ['Layout', 'UpdateLayerTree'],
  // IntersectionObservers: content-visibility's own and the chart view's (ChartView.svelte).
  observers: ['IntersectionObserverController::computeIntersections'],
  paint: ['Paint', 'PrePaint', 'Layerize', 'Commit', 'PaintImage', 'UpdateLayer',
    'CompositeLayers', 'BeginMainThreadFrame', 'ScrollLayer']
}
const groupOf = (name: string) =>
  Object.keys(GROUPS).find((g) => GROUPS[g]!.includes(name)) ?? 'other'

/** Self time: an event's duration less its children's (the events nest on one thread). */
function selfTimes (inside: TraceEvent[], totals: Record<string, number>) {
  const stack: TraceEvent[] = []
  const self = new Map<TraceEvent, number>()
  for (const e of inside) {
    while (stack.length && stack.at(-1)!.ts + stack.at(-1)!.dur! <= e.ts) stack.pop()
    const parent = stack.at(-1)
    const own = (e.tdur ?? e.dur!) / 1000
    self.set(e, (self.get(e) ?? 0) + own)
    if (parent) self.set(parent, (self.get(parent) ?? 0) - own)
    else totals.total = (totals.total ?? 0) + own
    stack.push(e)
  }
  return self
}

function analyse (events: TraceEvent[], prefix: string, count: number) {
  const marks = events.filter((e) => /^[tp]?[ab]\d+$/.test(e.name))
  const mark = (name: string) => marks.find((e) => e.name === name)
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' &&
    events.some((k) => k.pid === e.pid && k.name === 'ParseHTML'))!
  const on = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' &&
    e.dur !== undefined).sort((a, b) => a.ts - b.ts || b.dur! - a.dur!)
  const rows: Record<string, number>[] = []
  for (let n = 0; n < count; n++) {
    const a = mark(`${prefix}a${n}`)
    const b = mark(`${prefix}b${n}`)
    if (!a || !b) continue
    const inside = on.filter((e) => e.ts >= a.ts && e.ts + e.dur! <= b.ts)
    const totals: Record<string, number> = { total: 0 }
    const self = selfTimes(inside, totals)
    // The first frame's paint after the action (in the window or after it): the task that
    // holds the first PrePaint, its paint kinds' self time — what the figure may leave out.
    const pre = on.find((e) => e.name === 'PrePaint' && e.ts >= a.ts)
    const task = pre && on.find((e) => e.ts <= pre.ts && e.ts + e.dur! >= pre.ts + pre.dur!)
    if (task) {
      const frame = on.filter((e) => e.ts >= task.ts && e.ts + e.dur! <= task.ts + task.dur!)
      let paint = 0
      for (const [e, value] of selfTimes(frame, {})) if (groupOf(e.name) === 'paint') paint += value
      totals.nextFramePaint = paint
    }
    // Marks the code under study sets (`performance.mark('x-…')`), from the action's start.
    if (process.env.TRACE_MARKS) {
      const xs = events.filter((e) => e.name.startsWith('x-') && e.ts >= a.ts && e.ts <= b.ts)
      console.log(prefix || 's', n, xs.map((e) => `${e.name} ${((e.ts - a.ts) / 1000).toFixed(2)}`)
        .join(', '))
    }
    // Each style and layout pass, with the objects it laid out.
    if (process.env.TRACE_DETAIL) {
      for (const e of inside) {
        if (['Layout', 'UpdateLayoutTree'].includes(e.name)) {
          console.log(prefix || 's', n, e.name, ((e.tdur ?? e.dur!) / 1000).toFixed(2),
            JSON.stringify(e.args).slice(0, 300))
        }
      }
    }
    for (const [e, value] of self) {
      const g = groupOf(e.name)
      totals[g] = (totals[g] ?? 0) + value
    }
    rows.push(totals)
  }
  const med = (key: string) => {
    const v = rows.map((r) => r[key] ?? 0).sort((x, y) => x - y)
    return v[v.length >> 1]!
  }
  // In how many actions a frame's paint fell inside the window.
  const painted = rows.filter((r) => (r.paint ?? 0) > 0.05).length
  return ['total', ...Object.keys(GROUPS), 'other', 'nextFramePaint']
    .map((k) => `${k} ${med(k).toFixed(2)}`).join(', ') +
    ` (n=${rows.length}; paint inside in ${painted})`
}

const band = await startBand()
const browser = await launchBrowser()
try {
  const ids: number[] = []
  for (let n = 1; n <= 2 * CLICKS + 2; n++) {
    const song = await band.editor.ok('POST', '/songs', {
      title: `Chart ${n}`, key: 'G', tempoBpm: 100, chart: chartOf(300, n)
    })
    ids.push(song.id)
  }
  const gig = await band.editor.ok('POST', '/gigs', {
    name: 'Trace Night', date: dayFromNow(0), status: 'confirmed', startTime: '20:00'
  })
  await band.editor.ok('PUT', `/gigs/${gig.id}/setlist`, {
    version: 0,
    sets: [{ name: 'Set 1', entries: ids.map((songId, i) => ({ songId, transpose: i % 5 })) }]
  })
  const mia = await phoneOf(browser, band.base, band.member.username, band.member.password)
  const page = mia.page
  await page.goto(`${band.base}/app/gigs/${gig.id}/live`)
  await page.getByRole('region', { name: 'Chart' }).locator('.chord').first().waitFor()
  const cdp = await mia.context.newCDPSession(page)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: RATE })
  await browser.startTracing(page, {
    categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing',
      'toplevel', 'v8.execute']
  })
  for (let n = 0; n < CLICKS; n++) await page.evaluate(timed(click('Next song'), n))
  for (let n = 0; n < CLICKS; n++) {
    await page.evaluate(timed(click('Next song'), 100))
    await page.evaluate(timed(click(n % 2 ? 'Transpose down' : 'Transpose up'), 200 + n))
  }
  // Page turns (the pedal's keys) on the chart shown, from its top.
  await page.evaluate('document.querySelector(".pager").scrollTo(0, 0)')
  await page.locator('h1').click()
  for (let n = 0; n < CLICKS; n++) {
    const key = n % 4 === 3 ? 'PageUp' : 'PageDown'
    await page.evaluate(timed('window.dispatchEvent(new KeyboardEvent("keydown", ' +
      `{ key: "${key}", bubbles: true }))`, 300 + n))
  }
  const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as {
    traceEvents: TraceEvent[]
  }
  const events = trace.traceEvents
  // Rename the transposition's marks so one analysis reads both.
  for (const e of events) {
    if (/^[ab]2\d\d$/.test(e.name)) e.name = `t${e.name[0]}${Number(e.name.slice(1)) - 200}`
    if (/^[ab]3\d\d$/.test(e.name)) e.name = `p${e.name[0]}${Number(e.name.slice(1)) - 300}`
  }
  console.log(`CPU ${RATE}×, main-thread self time per action (ms, medians), load ` +
    (await import('node:fs')).readFileSync('/proc/loadavg', 'utf8').split(' ')[0])
  console.log(`show:      ${analyse(events, '', CLICKS)}`)
  console.log(`transpose: ${analyse(events, 't', CLICKS)}`)
  console.log(`page turn: ${analyse(events, 'p', CLICKS)}`)
  await mia.context.close()
} finally {
  await browser.close()
  await band.stop()
}
