// The main thread's own work for the stage chart's timed actions (bench/stage-charts.ts), from a
// Chromium trace: per click, the self time of each kind of event (script, style, layout, HTML
// parsing, paint) between the click and the first layout after it. Thread time, so a busy machine
// inflates it far less than the wall-clock figures (docs/performance-charts.md). Not part of
// `npm run bench`; alone, after a build:
// `node --conditions=bandstand-source --import tsx bench/stage-charts-trace.ts [rate] [clicks]`.
import { dayFromNow } from '#test/browser/api-client.js'
import { startBand } from '#test/browser/band-fixture.js'
import { launchBrowser } from '#test/browser/harness.js'
import { phoneOf } from '#test/browser/live-fixture.js'
import { chartOf } from './stage-charts.js'

const RATE = Number(process.argv[2] ?? 1)
const CLICKS = Number(process.argv[3] ?? 12)

interface TraceEvent {
  name: string
  ph: string
  ts: number
  dur?: number
  tdur?: number
  pid: number
  tid: number
  args?: { name?: string; data?: { type?: string } }
}

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
const firstPart = (action: string) => `(async () => {
  ${action};
  await new Promise((r) => {
    const c = new MessageChannel(); c.port1.onmessage = r; c.port2.postMessage(0)
  })
  void document.querySelector('.pager').scrollHeight
})()`
const click = (name: string) => '[...document.querySelectorAll("button")]' +
  `.find((b) => b.textContent.trim() === ${JSON.stringify(name)}).click()`

const GROUPS: Record<string, string[]> = {
  script: ['FunctionCall', 'EvaluateScript', 'V8.Execute', 'EventDispatch', 'TimerFire',
    'FireAnimationFrame', 'v8.run', 'RunMicrotasks', 'V8.GCScavenger', 'MinorGC', 'MajorGC'],
  html: ['ParseHTML'],
  style: ['UpdateLayoutTree', 'RecalculateStyles', 'ScheduleStyleRecalculation'],
  layout: ['Layout', 'UpdateLayerTree', 'IntersectionObserverController::computeIntersections'],
  paint: ['Paint', 'PrePaint', 'Layerize', 'Commit', 'PaintImage', 'UpdateLayer',
    'CompositeLayers', 'BeginMainThreadFrame', 'ScrollLayer']
}
const groupOf = (name: string) =>
  Object.keys(GROUPS).find((g) => GROUPS[g]!.includes(name)) ?? 'other'

function analyse (events: TraceEvent[], prefix: string, count: number) {
  const marks = events.filter((e) => /^t?[ab]\d+$/.test(e.name))
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
    // Self time: an event's duration less its children's (the events nest on one thread).
    const totals: Record<string, number> = { total: 0 }
    const stack: TraceEvent[] = []
    const self = new Map<TraceEvent, number>()
    for (const e of inside) {
      while (stack.length && stack.at(-1)!.ts + stack.at(-1)!.dur! <= e.ts) stack.pop()
      const parent = stack.at(-1)
      const own = (e.tdur ?? e.dur!) / 1000
      self.set(e, (self.get(e) ?? 0) + own)
      if (parent) self.set(parent, (self.get(parent) ?? 0) - own)
      else totals.total! += own
      stack.push(e)
    }
    if (process.env.TRACE_TASKS && n < 4) {
      console.log(prefix || 's', n, 'window', ((b.ts - a.ts) / 1000).toFixed(2))
      for (const e of inside) {
        if (e.dur! < 100) continue
        const depth = inside.filter((o) => o !== e && o.ts <= e.ts &&
          o.ts + o.dur! >= e.ts + e.dur!).length
        if (depth > 2) continue
        console.log('  '.repeat(depth + 1), e.name, ((e.ts - a.ts) / 1000).toFixed(2),
          (e.dur! / 1000).toFixed(2), ((e.tdur ?? 0) / 1000).toFixed(2))
      }
    }
    if (process.env.TRACE_MARKS) {
      const xs = events.filter((e) => e.name.startsWith('x-') && e.ts >= a.ts && e.ts <= b.ts)
      console.log(prefix || 's', n, xs.map((e) => `${e.name} ${((e.ts - a.ts) / 1000).toFixed(2)}`)
        .join(', '))
    }
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
  return ['total', ...Object.keys(GROUPS), 'other']
    .map((k) => `${k} ${med(k).toFixed(2)}`).join(', ') + ` (n=${rows.length})`
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
  if (process.env.EXPERIMENT) {
    await page.evaluate(timed(click('Next song'), 900))
    await page.waitForTimeout(300)
    console.log(await page.evaluate(`(() => {
      const facts = document.querySelector('.chart-facts')
      const text = facts.firstChild
      const run = () => {
        const times = []
        for (let i = 0; i < 200; i++) {
          text.data = i % 2 ? text.data.replace('A', 'B') : text.data.replace('B', 'A')
          const t0 = performance.now(); void document.body.offsetHeight
          times.push(performance.now() - t0)
        }
        return (times.reduce((a, b) => a + b) / times.length).toFixed(3)
      }
      const out = { base: run() }
      const style = document.createElement('style'); document.head.append(style)
      const variant = (name, css) => { style.textContent = css; void document.body.offsetHeight
        out[name] = run(); style.textContent = ''; void document.body.offsetHeight }
      variant('noPagerContent', '.pager > * { display: none }')
      variant('pagerHidden', '.pager { display: none }')
      variant('othersHidden', '.stage-grid > :not(.stage-chart) { display: none } nav, header, footer { display: none }')
      variant('goneHidden', '.gone { display: none }')
      variant('headContained', '.chart-head { contain: layout; }')
      out.base2 = run()
      out.objects = document.querySelectorAll('*').length
      out.grid = [...document.querySelector('.stage-grid').children].map((c) => c.className).join(' | ')
      return JSON.stringify(out)
    })()`))
  }
  if (process.env.EXPERIMENT2) {
    await page.evaluate(timed(click('Next song'), 900))
    await page.waitForTimeout(300)
    console.log(await page.evaluate(`(async () => {
      const view = document.querySelector('.chart')
      const body = view.firstElementChild
      const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)))
      const out = {}
      for (const [name, op, display, contain, keep, noscreen] of [
        ['margin', (b) => { b.style.marginTop = '1px' }],
        ['small', (b) => { b.style.marginTop = '1px' }, '', '', 2],
        ['half', (b) => { b.style.marginTop = '1px' }, '', '', 12],
        ['noscreen', (b) => { b.style.marginTop = '1px' }, '', '', 99, true],
        ['margin', (b) => { b.style.marginTop = '1px' }],
        ['small', (b) => { b.style.marginTop = '1px' }, '', '', 2],
        ['half', (b) => { b.style.marginTop = '1px' }, '', '', 12],
        ['noscreen', (b) => { b.style.marginTop = '1px' }, '', '', 99, true],
        ['remove', (b) => b.remove()]]) {
        const times = []
        for (let i = 0; i < 10; i++) {
          const copy = body.cloneNode(true)
          if (display) copy.style.display = display
          if (contain) copy.style.contain = contain
          if (keep) [...copy.children].slice(keep).forEach((c) => c.remove())
          if (noscreen) copy.querySelectorAll('.screen').forEach((c) => c.classList.remove('screen'))
          view.prepend(copy)
          await frame(); await frame()
          const t0 = performance.now()
          op(copy)
          void document.body.offsetHeight
          times.push(performance.now() - t0)
          copy.remove()
          await frame()
        }
        times.sort((a, b) => a - b)
        out[name] = (out[name] ? out[name] + ' / ' : '') + times[5].toFixed(2)
      }
      return JSON.stringify(out)
    })()`))
  }
  if (process.env.PROFILE) {
    // JavaScript by function (self time of the samples) for the shows, then the transpositions.
    await cdp.send('Profiler.enable')
    await cdp.send('Profiler.setSamplingInterval', { interval: 50 })
    for (const kind of ['show', 'transpose']) {
      await cdp.send('Profiler.start')
      for (let n = 0; n < CLICKS; n++) {
        if (kind === 'show') {
          // Only the timed part: the click to the first layout after it.
          await page.evaluate(firstPart(click('Next song')))
          await cdp.send('Profiler.stop')
          await page.evaluate(timed('void 0', 900))
          await cdp.send('Profiler.start')
        } else {
          await cdp.send('Profiler.stop')
          await page.evaluate(timed(click('Next song'), 900))
          await cdp.send('Profiler.start')
          await page.evaluate(timed(click(n % 2 ? 'Transpose down' : 'Transpose up'), 900))
        }
      }
      const { profile } = await cdp.send('Profiler.stop')
      const self = new Map<string, number>()
      const byId = new Map(profile.nodes.map((node) => [node.id, node]))
      const dt = profile.timeDeltas ?? []
      profile.samples?.forEach((id, i) => {
        const f = byId.get(id)!.callFrame
        const name = `${f.functionName || '(anon)'} ${f.url.split('/').pop()}:${f.lineNumber}`
        self.set(name, (self.get(name) ?? 0) + (dt[i + 1] ?? 0) / 1000 / CLICKS)
      })
      console.log(kind, [...self].filter(([n]) => !n.startsWith('(idle)'))
        .sort((a, b) => b[1] - a[1]).slice(0, 25)
        .map(([n, v]) => `${v.toFixed(3)} ${n}`).join('\n'))
    }
  }
  await browser.startTracing(page, {
    categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing',
      'toplevel', 'v8.execute']
  })
  for (let n = 0; n < CLICKS; n++) await page.evaluate(timed(click('Next song'), n))
  for (let n = 0; n < CLICKS; n++) {
    await page.evaluate(timed(click('Next song'), 100))
    await page.evaluate(timed(click(n % 2 ? 'Transpose down' : 'Transpose up'), 200 + n))
  }
  const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as {
    traceEvents: TraceEvent[]
  }
  const events = trace.traceEvents
  // Rename the transposition's marks so one analysis reads both.
  for (const e of events) {
    if (/^[ab]2\d\d$/.test(e.name)) e.name = `t${e.name[0]}${Number(e.name.slice(1)) - 200}`
  }
  console.log(`CPU ${RATE}×, main-thread self time per action (ms, medians), load ` +
    (await import('node:fs')).readFileSync('/proc/loadavg', 'utf8').split(' ')[0])
  console.log(`show:      ${analyse(events, '', CLICKS)}`)
  console.log(`transpose: ${analyse(events, 't', CLICKS)}`)
  await mia.context.close()
} finally {
  await browser.close()
  await band.stop()
}
