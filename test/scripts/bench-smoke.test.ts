import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { projectPath } from '#src/project-path.js'

// The benchmark in a one-second smoke run: it must work end to end (every endpoint answers as
// expected, the table and the document figures are printed). Speed is reported by `npm run bench`,
// never asserted.
const sourceConditions = process.execArgv.filter((arg) => arg.startsWith('--conditions='))

// Generous limits: on a loaded 2-core machine the smoke run (a server start, the HTTP rows, the
// document burst, the web bundle) took 230 s before the editor and live-mode browser benches
// joined it; the limit only keeps a hung run from hanging CI.
test('npm run bench works end to end (smoke run, no thresholds)', { timeout: 600_000 }, () => {
  const run = spawnSync(
    process.execPath,
    [...sourceConditions, '--import', 'tsx', projectPath('bench', 'run.ts')],
    {
      cwd: projectPath(),
      env: {
        ...process.env,
        BENCH_DURATION: '1',
        BENCH_WARMUP: '0.5',
        BENCH_CONNECTIONS: '10',
        BENCH_DOC_RUNS: '2',
        BENCH_DOC_FLOOD: '100',
        BENCH_EDITOR_MOVES: '5',
        BENCH_LIVE_TAPS: '3',
        BENCH_LIVE_RENDERS: '1',
        BENCH_OFFLINE_RENDERS: '1',
        BENCH_FLOOD_SECONDS: '3',
        BENCH_FLOOD_ADDRESSES: '20'
      },
      encoding: 'utf8',
      timeout: 590_000
    }
  )
  const output = `${run.stdout}\n${run.stderr}`
  assert.equal(run.status, 0, output)
  for (const row of [
    'GET /songs (500)',
    'GET /gigs (300)',
    'GET /gigs/{id}/setlist (60)',
    'GET /gigs_lm/{id} 304',
    'PUT /gigs_lm/{id}/',
    'GET /cal/ical/{token} (500)',
    'POST /login'
  ]) {
    const line = run.stdout.split('\n').find((l) => l.startsWith(row))
    assert.ok(line, `row ${row} printed`)
    assert.doesNotMatch(line, /answered \d+/, `${row} answered as expected`)
  }
  // The floors answer 304 to every request (a 401 would mean the session lookup found nothing).
  for (const row of ['floor: bare Fastify, empty 304', 'floor: bare + session lookup, 304']) {
    const line = run.stdout.split('\n').find((l) => l.startsWith(row))
    assert.ok(line, `row ${row} printed`)
    const [, , requests, , , errors, serverCpu, loadCpu, steal] = line.split(/\s{2,}/)
    assert.ok(Number(requests) > 0, line)
    assert.equal(errors, '0', line)
    // Both processes did measurable work while the row ran (read from /proc and process.cpuUsage).
    assert.match(serverCpu ?? '', /^[1-9]\d* %$/, line)
    assert.match(loadCpu ?? '', /^[1-9]\d* %$/, line)
    assert.match(steal ?? '', /^\d+ %$/, line)
  }
  assert.match(run.stdout, /RSS after run: [\d.]+ MB/)
  // The RSS bound's floor: bare Fastify's RSS after the same rows, a figure of its own process.
  assert.match(run.stdout, /bare Fastify's after its rows: [1-9][\d.]* MB/)
  assert.match(run.stdout, /setlist PDF, 60 songs .* median/)
  assert.match(run.stdout, /GET \/health while 100 requests arrive at once \(setlist PDFs/)
  assert.match(run.stdout, /\(floor: bare Fastify refusing all\): p50/)
  assert.match(run.stdout, /^wrong logins, 20 addresses.* member GET \/me p50 [\d.]+ ms, p99 /m)
  assert.match(run.stdout, /^GET \/health, 20 addresses.* valid login \d+/m)
  assert.match(run.stdout, /tap → shown on another phone: p50 \d+ ms, p95 \d+ ms/)
  assert.match(run.stdout, /first render, CPU 4× throttled: p50 \d+ ms/)
  assert.match(run.stdout, /every phone current \d+ ms after the server was back/)
  assert.match(run.stdout, /live route JS added to the first screen's: [\d.]+ KB gzip/)
  assert.match(run.stdout, /web app: first screen JS \(\/app\/, dashboard\) [\d.]+ KB gzip/)
  for (const route of ['/app/ ', '/app/login', '/app/gigs/[id]', '/app/me']) {
    assert.match(run.stdout, new RegExp(`^${route.replace(/[[\]]/g, '\\$&')}\\s+[\\d.]+ KB`, 'm'), route)
  }
  assert.match(run.stdout, /^ {2}200 entries: median [\d.]+ ms, p95 [\d.]+ ms/m)
  assert.match(run.stdout, /200 vs 20 entries \(same run\): median ×[\d.]+/)
  // The stage view: each figure throttled and unthrottled (the ratio) with the load average.
  assert.match(run.stdout, /^GET \/gigs\/\{id\}\/charts, 40 songs .* bare route .* \(× [\d.]+\)/m)
  for (const figure of ['show a 300-line chart', 'transpose the 300-line chart', 'page turn']) {
    const row =
      `^${figure}.*\\(phone, CPU 4×\\): median [\\d.]+ ms.*ratio × [\\d.]+; .*load [\\d.]+$`
    assert.match(run.stdout, new RegExp(row, 'm'), figure)
  }
  assert.match(run.stdout, /^chart code on the first screen: none/m)
  // Gig night without a network (bench/offline.ts).
  assert.match(run.stdout, /gig pack of a 40-song gig with charts and 2 PDFs: \d+ ms .* \d+ B kept/)
  assert.match(run.stdout, /refresh of the unchanged pack: \d+ ms; \d+ of \d+ answers 304/)
  assert.match(run.stdout, /live page offline from the service worker, CPU 4× throttled: median \d+/)
  assert.match(run.stdout, /service worker code in the first screen's JavaScript: \d+ B/)
  // Answers at the limits (bench/setlist-limits.ts): the event loop's longest stall against an
  // idle span's, the main thread's longest CPU slice, and the RSS.
  for (const row of ['GET /gigs/{id}/charts, br', 'GET /gigs/{id}/setlist.csv (8',
    'GET /gigs/{id}/charts.zip', 'GET /gigs/{id}/setlist.pdf', 'parseChordPro, a 64 KiB chart']) {
    const figure = row.replace(/[{}()/]/g, '\\$&')
    const stall = ' \\d+ ms \\| blocked +\\d+ ms \\(idle +\\d+, [+−] +\\d+\\) \\| ' +
      'CPU slice +\\d+ ms \\(idle +\\d+\\) \\| p99 +\\d+ \\(idle +\\d+\\) \\| RSS \\+-?\\d+ MiB$'
    assert.match(run.stdout, new RegExp(`^${figure}.*${stall}`, 'm'), row)
  }
  assert.match(run.stdout, /the CSV over the cap: 413/)
})
