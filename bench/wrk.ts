/**
 * The HTTP load generator of the bench: wrk (C, one event loop per thread, never decodes a body),
 * so a row measures the server and not the client (whole seconds only), and what the server, wrk
 * and the hypervisor used while it ran. BENCH_DURATION (seconds, default 10), BENCH_WARMUP
 * (seconds before each row, default 2), BENCH_CONNECTIONS (default 50) and BENCH_THREADS tune it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { constants } from 'node:os'
import { setTimeout as sleep } from 'node:timers/promises'

export interface WrkResult {
  requests: { average: number; total: number }
  /** Milliseconds. */
  latency: { p50: number; p99: number }
  /** Socket errors and error answers (status >= 400). */
  failed: number
}
const threads = Number(process.env.BENCH_THREADS ?? 1)

export const duration = Number(process.env.BENCH_DURATION ?? 10)
export const connections = Number(process.env.BENCH_CONNECTIONS ?? 50)
// Every row is measured in steady state: the same load runs first for this long, uncounted, so the
// JIT has compiled the route's code (a cold route's first second of compiling lands in its p99).
// Gig night is hours of polling; the cold start has its own figure (start to first answer).
export const warmup = Number(process.env.BENCH_WARMUP ?? 2)
// BENCH_REQUESTS (the smoke run's): each wrk thread stops after that many answers and says so;
// once all have, wrk is interrupted (SIGINT: it reports at once) instead of sleeping through the
// rest of its whole second (a row proven, not measured).
const requestCap = Number(process.env.BENCH_REQUESTS ?? 0)
const STOPPED = 'BENCH-THREAD-STOPPED'

/**
 * The load generator: wrk (C, one event loop per thread, never decodes a body), so a row measures
 * the server and not the client (whole seconds only). Debian's package is installed when missing.
 */
export function ensureWrk (): void {
  if (spawnSync('wrk', ['--version']).error === undefined) return
  console.log('wrk is missing: installing Debian\'s package (apt-get install wrk)')
  const install = spawnSync('sh', ['-c', 'apt-get install -y wrk || sudo apt-get install -y wrk'], {
    stdio: 'inherit'
  })
  if (install.status !== 0 || spawnSync('wrk', ['--version']).error !== undefined) {
    throw new Error('npm run bench needs wrk: apt-get install wrk')
  }
}

/** A Lua string literal (wrk scripts are Lua; the bench only sends ASCII). */
function lua (text: string): string {
  if (!/^[\x20-\x7e]*$/.test(text)) throw new Error(`not printable ASCII: ${text}`)
  return JSON.stringify(text)
}

/**
 * A wrk script: the request, and a summary (requests, latency percentiles in µs, socket errors,
 * answers with a status of 400 or more) printed as one JSON line after the run. No `response`
 * callback (but in the smoke run's BENCH_REQUESTS): with one, wrk would copy every body into Lua.
 */
function wrkScript (
  request: { method: string; headers: Record<string, string>; body?: string },
  cap: number
) {
  return [
    `wrk.method = ${lua(request.method)}`,
    ...Object.entries(request.headers).map(([k, v]) => `wrk.headers[${lua(k)}] = ${lua(v)}`),
    request.body === undefined ? '' : `wrk.body = ${lua(request.body)}`,
    ...(cap > 0
      ? ['local answered = 0', 'function response ()', '  answered = answered + 1',
          `  if answered == ${cap} then`,
          `    io.write('\\n${STOPPED}\\n')`, '    io.flush()', '    wrk.thread:stop()',
          '  end', 'end']
      : []),
    'function done (summary, latency)',
    '  local e = summary.errors',
    '  io.write(string.format(\'\\nBENCH {"requests":%d,"micros":%d,"p50":%d,"p99":%d,' +
      '"errors":%d}\\n\', summary.requests, summary.duration,' +
      ' latency:percentile(50), latency:percentile(99),' +
      ' e.connect + e.read + e.write + e.timeout + e.status))',
    'end'
  ].join('\n')
}

const scriptDir = mkdtempSync(join(tmpdir(), 'bandstand-wrk-'))

/**
 * SIGINT for wrk, once it catches it: wrk installs its handler after starting its threads, and a
 * thread that answered its cap before that (a main thread descheduled on a loaded machine) would
 * otherwise see wrk killed, its summary lost.
 */
async function interrupt (wrk: ChildProcess): Promise<void> {
  const sigint = 1n << BigInt(constants.signals.SIGINT - 1)
  const catchesSigint = () => {
    try {
      const mask = /^SigCgt:\s*([0-9a-f]+)$/m.exec(readFileSync(`/proc/${wrk.pid}/status`, 'utf8'))
      return mask !== null && (BigInt(`0x${mask[1]}`) & sigint) !== 0n
    } catch {
      return false
    }
  }
  while (wrk.exitCode === null && !catchesSigint()) await sleep(5)
  if (wrk.exitCode === null) wrk.kill('SIGINT')
}

async function runWrk (
  url: string,
  script: string,
  seconds: number,
  capped: boolean
): Promise<WrkResult> {
  const file = join(scriptDir, 'request.lua')
  writeFileSync(file, script)
  const whole = `${Math.max(1, Math.round(seconds))}s`
  const wrk = spawn(
    'wrk',
    [`-t${threads}`, `-c${connections}`, `-d${whole}`, '--timeout', '10s', '-s', file, url],
    { stdio: ['ignore', 'pipe', 'inherit'] }
  )
  let output = ''
  let interrupted = false
  wrk.stdout!.on('data', (chunk) => {
    output += chunk
    const stopped = output.split(`\n${STOPPED}\n`).length - 1
    if (capped && !interrupted && stopped >= threads) {
      interrupted = true
      void interrupt(wrk)
    }
  })
  const [code] = (await once(wrk, 'exit')) as [number | null]
  const line = /^BENCH (.*)$/m.exec(output)?.[1]
  if (code !== 0 || !line) throw new Error(`wrk failed (${code}):\n${output}`)
  const r = JSON.parse(line) as {
    requests: number
    micros: number
    p50: number
    p99: number
    errors: number
  }
  return {
    requests: { total: r.requests, average: r.requests / (r.micros / 1e6) },
    latency: { p50: r.p50 / 1000, p99: r.p99 / 1000 },
    failed: r.errors
  }
}

/** CPU seconds a process has used (utime + stime; Linux counts them in 1/100 s). */
function cpuSeconds (pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}

/** CPU seconds all wrk processes (the load generator) used so far: their children's times. */
function loadGeneratorSeconds (): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[13]) + Number(fields[14])) / 100
}

/**
 * Machine-wide CPU ticks, and those the hypervisor took for other guests (steal), from /proc/stat.
 */
function machineTicks (): { total: number; steal: number } {
  const fields = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]!
    .trim()
    .split(/\s+/)
    .slice(1, 9)
    .map(Number)
  return { total: fields.reduce((sum, value) => sum + value, 0), steal: fields[7] ?? 0 }
}

/**
 * wrk at the bench's load, after an uncounted warm-up. It also reports how busy the server and the
 * load generator were: a row whose server is well below 100 % of a core was limited by something
 * else than the server; a row with CPU stolen by the hypervisor (a shared VM) was slowed by other
 * guests.
 */
export async function load (
  request: { url: string; method?: string; headers?: Record<string, string>; body?: string },
  serverPid: number,
  /**
   * Runs its whole duration even in the smoke run: its CPU columns must show (Linux counts CPU
   * time in 10 ms ticks; 100 answers of an empty 304 cost wrk less than one).
   */
  { uncapped = false } = {}
): Promise<WrkResult & { serverCpu: number; loadCpu: number; steal: number }> {
  const cap = uncapped ? 0 : requestCap
  const script = wrkScript({
    method: request.method ?? 'GET',
    headers: request.headers ?? {},
    body: request.body
  }, cap)
  let failed = 0
  if (warmup > 0) failed += (await runWrk(request.url, script, warmup, cap > 0)).failed
  const started = performance.now()
  const machineBefore = machineTicks()
  const serverBefore = cpuSeconds(serverPid)
  const loadBefore = loadGeneratorSeconds()
  const result = await runWrk(request.url, script, duration, cap > 0)
  const seconds = (performance.now() - started) / 1000
  const machineAfter = machineTicks()
  return {
    ...result,
    failed: failed + result.failed,
    serverCpu: Math.round(((cpuSeconds(serverPid) - serverBefore) / seconds) * 100),
    loadCpu: Math.round(((loadGeneratorSeconds() - loadBefore) / seconds) * 100),
    steal: Math.round(
      ((machineAfter.steal - machineBefore.steal) /
        Math.max(1, machineAfter.total - machineBefore.total)) *
        100
    )
  }
}

/** The wrk scripts' folder goes when the last part that loads with wrk is done. */
export const removeWrkScripts = () => rmSync(scriptDir, { recursive: true, force: true })
