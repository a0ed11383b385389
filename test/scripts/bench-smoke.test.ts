import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { projectPath } from '#src/project-path.js'

// The benchmark in a one-second smoke run: it must work end to end (every endpoint answers as
// expected, the table and the document figures are printed). Speed is reported by `npm run bench`,
// never asserted.
const sourceConditions = process.execArgv.filter((arg) => arg.startsWith('--conditions='))

/** The bench's parts named, in a one-second smoke run; its output. */
async function smokeRun (parts: string) {
  const bench = spawn(
    process.execPath,
    [...sourceConditions, '--import', 'tsx', projectPath('bench', 'run.ts')],
    {
      cwd: projectPath(),
      env: {
        ...process.env,
        BENCH_PARTS: parts,
        BENCH_DURATION: '1',
        // No warm-up: wrk counts whole seconds, so any warm-up doubled each row.
        BENCH_WARMUP: '0',
        BENCH_CONNECTIONS: '10',
        // Each wrk row ends after a few answers (but the floors, whose CPU columns are checked).
        BENCH_REQUESTS: '100',
        BENCH_LOGINS: '2',
        BENCH_DOC_RUNS: '1',
        BENCH_DOC_FLOOD: '4',
        BENCH_EDITOR_MOVES: '2',
        BENCH_LIVE_TAPS: '1',
        BENCH_LIVE_RENDERS: '1',
        BENCH_OFFLINE_RENDERS: '1',
        // The valid login is awaited, whatever the flood's length.
        BENCH_FLOOD_SECONDS: '1',
        BENCH_FLOOD_ADDRESSES: '10',
        BENCH_FLOOD_ONLY: 'addresses',
        BENCH_STAGE_ROUNDS: '1',
        BENCH_STAGE_REQUESTS: '1',
        BENCH_STAGE_TURNS: '4',
        BENCH_START_RUNS: '1',
        BENCH_SCALE_FACTOR: '2',
        BENCH_SCALE_RUNS: '1',
        BENCH_SCALE_READ_CPU_MS: '0',
        BENCH_SCALE_WARMUP: '0',
        BENCH_FILES_UPLOADS: '1',
        BENCH_FILES_ROUNDS: '1'
      },
      stdio: ['ignore', 'pipe', 'pipe']
    }
  )
  let stdout = ''
  let stderr = ''
  bench.stdout.on('data', (chunk) => (stdout += chunk))
  bench.stderr.on('data', (chunk) => (stderr += chunk))
  const [code] = (await once(bench, 'exit')) as [number | null]
  assert.equal(code, 0, `${stdout}\n${stderr}`)
  return stdout
}

// Three runs side by side, their durations balanced (on the quiet 2-core machine, alone: 47, 47
// and 42 s; the parts print theirs). scripts/run-tests.mjs runs this file after the others, with
// the machine to itself. Generous limits: they only keep a hung run from hanging CI.
const groups = {
  http: 'http,start,serializer,limits,addresses',
  documents: 'documents,files,scale',
  browser: 'web,offline'
}
const runs = {
  http: smokeRunLater(groups.http),
  documents: smokeRunLater(groups.documents),
  browser: smokeRunLater(groups.browser)
}

/** Started once the first test asks for it (not at import: a filtered run starts none). */
function smokeRunLater (parts: string) {
  let run: Promise<string> | undefined
  return () => (run ??= smokeRun(parts))
}

test('npm run bench works end to end: the server parts (smoke run, no thresholds)',
  { timeout: 600_000 }, async (t) => {
    // The other groups start at once beside this one; their tests await the same runs.
    void runs.documents().catch(() => {})
    void runs.browser().catch(() => {})
    const run = { stdout: `${await runs.http()}\n${await runs.documents()}` }
    // What each part took (the smoke run's budget is a minute).
    for (const line of run.stdout.match(/^bench part .*$/gm) ?? []) t.diagnostic(line)
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
      // Both processes did measurable work while the row ran (from /proc and process.cpuUsage).
      assert.match(serverCpu ?? '', /^[1-9]\d* %$/, line)
      assert.match(loadCpu ?? '', /^[1-9]\d* %$/, line)
      assert.match(steal ?? '', /^\d+ %$/, line)
    }
    assert.match(run.stdout, /RSS after run: [\d.]+ MB/)
    // The RSS bound's floor: bare Fastify's RSS after the same rows, a figure of its own process.
    assert.match(run.stdout, /bare Fastify's after its rows: [1-9][\d.]* MB/)
    assert.match(run.stdout, /setlist PDF, 60 songs .* median/)
    assert.match(run.stdout, /GET \/health while \d+ requests arrive at once \(setlist PDFs/)
    assert.match(run.stdout, /\(floor: bare Fastify refusing all\): p50/)
    assert.match(run.stdout, /^wrong logins, 10 addresses.* member GET \/me p50 [\d.]+ ms, p99 /m)
    assert.match(run.stdout, /^GET \/health, 10 addresses.* valid login \d+/m)
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
    // Start to the first answer (bench/start-time.ts).
    assert.match(run.stdout, /^start to first answer .*: \d+ ms wall, \d+ ms CPU/m)
    assert.match(run.stdout, /^npm start \(npm, prestart's build check, the server\): \d+ ms/m)
    // Cost as the data grows (bench/scale.ts): every row at both scales, with its ratio.
    for (const row of ['GET /songs', 'GET /stats (all time)', 'GET /gigs/{id}/gema (GEMA report)',
      'GET /gigs_lm/{id} (live view)', 'band export', 'band import', 'libreStage import']) {
      const figure = row.replace(/[{}()/]/g, '\\$&')
      assert.match(run.stdout, new RegExp(`^${figure}.* [\\d.]+ +[\\d.]+ +×[\\d.]+ `, 'm'), row)
    }
  })

test('npm run bench works end to end: the web app in Chromium (smoke run, no thresholds)',
  { timeout: 600_000 }, async (t) => {
    const run = { stdout: await runs.browser() }
    for (const line of run.stdout.match(/^bench part .*$/gm) ?? []) t.diagnostic(line)
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
  })
