import { cpus, totalmem } from 'node:os'
import { npmStartCommand } from '#test/server-process.js'
import { connections, duration, warmup } from './wrk.js'

// The HTTP part's table and its targets (bench/http.ts).

export interface Row {
  name: string
  /** Bytes on the wire per answer (compressed where the row asks for it). */
  bytes?: number
  rps: number
  p50: number
  p99: number
  errors: number
  bareRps?: number
  /** Share of one core used by the server and by the load generator during the row. */
  serverCpu?: number
  loadCpu?: number
  /** Share of the machine's CPU the hypervisor gave to other guests during the row. */
  steal?: number
  /**
   * The bare route's p99 and CPU shares: what the same bytes cost without any of Bandstand's work.
   */
  bareP99?: number
  bareCpu?: { server: number; load: number }
  note?: string
}

export function print (
  rows: Row[],
  process: {
    startMs: number
    rssStart: number
    rssEnd: number
    rssIdle: number
    rssBare: number
  }
) {
  const cpu = cpus()[0]?.model ?? 'unknown cpu'
  console.log(
    `\nBandstand HTTP benchmark — ${cpus().length} cores (${cpu}), ` +
      `${Math.round(totalmem() / 2 ** 30)} GiB, Node ${processVersion()}, ` +
      `${connections} connections, ${duration} s each after a ${warmup} s warm-up\n`
  )
  const header = [
    'endpoint',
    'bytes',
    'req/s',
    'p50 ms',
    'p99 ms',
    'errors',
    'server CPU',
    'load CPU',
    'VM steal',
    'bare req/s',
    'bare p99',
    'bare CPU srv/load',
    'ratio'
  ]
  const lines = rows.map((r) =>
    [
      r.name,
      r.bytes === undefined ? '-' : String(r.bytes),
      String(r.rps),
      String(r.p50),
      String(r.p99),
      String(r.errors),
      r.serverCpu === undefined ? '-' : `${r.serverCpu} %`,
      r.loadCpu === undefined ? '-' : `${r.loadCpu} %`,
      r.steal === undefined ? '-' : `${r.steal} %`,
      r.bareRps ? String(r.bareRps) : '-',
      r.bareP99 === undefined ? '-' : String(r.bareP99),
      r.bareCpu ? `${r.bareCpu.server}/${r.bareCpu.load} %` : '-',
      r.bareRps ? `${Math.round((r.rps / r.bareRps) * 100)} %` : '-'
    ].concat(r.note ? [r.note] : [])
  )
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)))
  const format = (cells: string[]) =>
    cells.map((c, i) => (i < widths.length ? c.padEnd(widths[i]!) : c)).join('  ')
  console.log(format(header))
  console.log(widths.map((w) => '-'.repeat(w)).join('  '))
  for (const line of lines) console.log(format(line))
  console.log(
    `\nstart to first answer: ${process.startMs} ms; RSS after start: ${process.rssStart} ` +
      `MB; RSS after run: ${process.rssEnd} MB; 5 s later: ${process.rssIdle} ` +
      `MB; bare Fastify's after its rows: ${process.rssBare} MB`
  )
  console.log(targets(rows, process.rssEnd))
  const { env, flags } = npmStartCommand()
  console.log(
    `server started as npm start does: ${Object.entries(env)
      .map(([k, v]) => `${k}=${v} `)
      .join('')}node ${flags.join(' ')} dist/server.js\n`
  )
}
const processVersion = () => globalThis.process.version

/** The targets (2 cores, 50 connections) as ratios to the bare routes of the same run. */
function targets (rows: Row[], rssEnd: number): string {
  const row = (name: string) => rows.find((r) => r.name === name)
  const percent = (part = 0, whole = 0) => (whole > 0 ? Math.round((part / whole) * 100) : 0)
  const live = row('GET /gigs_lm/{id}')
  const notModified = row('GET /gigs_lm/{id} 304')
  const mark = (ok: boolean) => (ok ? 'met' : 'NOT met')
  const liveShare = percent(live?.rps, live?.bareRps)
  const p99Times = live?.bareP99 ? Math.round((live.p99 / live.bareP99) * 10) / 10 : 0
  const share304 = percent(notModified?.rps, notModified?.bareRps)
  const lists = ['GET /songs (500)', 'GET /gigs (300)'].map((name) => {
    const r = row(name)
    return { name, share: percent(r?.rps, r?.bareRps) }
  })
  return [
    '\nTargets:',
    `  live GET ${liveShare} % of bare (>= 25 %: ${mark(liveShare >= 25)}), ` +
      `p99 ${p99Times}x bare's (<= 3x: ${mark(p99Times > 0 && p99Times <= 3)})`,
    `  304 ${share304} % of bare Fastify's empty 304 (>= 40 %: ${mark(share304 >= 40)})`,
    ...lists.map((l) => `  ${l.name} ${l.share} % of bare (>= 40 %: ${mark(l.share >= 40)})`),
    `  RSS after the run ${rssEnd} MB (<= 120 MB: ${mark(rssEnd <= 120)})`
  ].join('\n')
}
