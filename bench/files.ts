import { fork, type ChildProcess } from 'node:child_process'
import {
  createReadStream,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { request } from 'node:http'
import { Readable } from 'node:stream'
import { projectPath } from '#src/project-path.js'
import { loginOverHttp, npmStartCommand, startServer } from '#test/server-process.js'
import { pdfFile, wavFile } from '#test/file-fixtures.js'

// Song and gig files (BENCH_PARTS=files): the server's RSS while a 60 MB recording streams in, and
// the download throughput of GET /files/{id} against @fastify/static serving the same file from
// the same directory in its own process, at the same load.

type Load = (
  request: { url: string, headers?: Record<string, string> },
  pid: number
) => Promise<{
  requests: { average: number },
  latency: { p99: number },
  failed: number,
  serverCpu: number
}>

/** Uploads of 60 MB in a row (BENCH_FILES_UPLOADS) and download rounds (BENCH_FILES_ROUNDS). */
const uploads = Number(process.env.BENCH_FILES_UPLOADS ?? 5)
const downloadRounds = Number(process.env.BENCH_FILES_ROUNDS ?? 3)

/** The round with the median request rate. */
function medianRound<T extends { requests: { average: number } }> (results: T[]): T {
  const sorted = [...results].sort((a, b) => a.requests.average - b.requests.average)
  return sorted[Math.floor(sorted.length / 2)]!
}

/** The process's resident memory now (VmRSS) or its peak since the last reset (VmHWM), in MB. */
function memoryMb (pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  let status = ''
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8')
  } catch {
    // the server ended: its output says why
  }
  const kb = new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0
  return Math.round(Number(kb) / 102.4) / 10
}

/**
 * Sets the process's peak (VmHWM) to its RSS now (Linux's clear_refs): the kernel then counts the
 * true peak, which sampling every few milliseconds could miss. False where that is not allowed.
 */
function resetPeak (pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5')
    return true
  } catch {
    return false
  }
}

/** A multipart body streamed from a file: the fields first, as the web app sends them. */
function multipartStream (file: string, kind: string): { body: Readable, type: string } {
  const boundary = 'bench-boundary'
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nBench\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="kind"\r\n\r\n${kind}\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench"\r\n` +
    'Content-Type: application/octet-stream\r\n\r\n'
  async function * parts () {
    yield Buffer.from(head)
    yield * createReadStream(file, { highWaterMark: 256 * 1024 })
    yield Buffer.from(`\r\n--${boundary}--\r\n`)
  }
  return { body: Readable.from(parts()), type: `multipart/form-data; boundary=${boundary}` }
}

/** Uploads over node:http (a streamed body: undici's fetch lost the 60 MB one's connection). */
async function uploadFile (base: string, cookie: string, songId: number, file: string,
  kind: string): Promise<{ id: number, file: { url: string, sha256: string } }> {
  const { body, type } = multipartStream(file, kind)
  return await new Promise((resolve, reject) => {
    const req = request(`${base}/songs/${songId}/files`,
      { method: 'POST', headers: { cookie, 'content-type': type } }, (res) => {
        let text = ''
        res.on('data', (chunk) => (text += chunk))
        res.on('end', () => res.statusCode === 201
          ? resolve(JSON.parse(text))
          : reject(new Error(`upload: ${res.statusCode} ${text}`)))
      })
    req.on('error', reject)
    body.pipe(req)
  })
}

export async function runFilesBench (load: Load): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bandstand-bench-files-'))
  const password = 'bench password for the files bench'
  const server = await startServer({
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: password,
    LOG_LEVEL: process.env.BENCH_FILES_LOG ?? 'warn'
  })
  let floor: ChildProcess | undefined
  try {
    const cookie = await loginOverHttp(server.base, 'admin', password)
    const song = await fetch(`${server.base}/songs`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Bench song' })
    })
    const songId = (await song.json() as { id: number }).id

    // 60 MB of WAV (just under the recording limit), streamed as a phone would send it, several
    // times. Each upload's peak is the kernel's high-water mark of the server's RSS, counted from
    // the RSS just before that upload (the same run's baseline); what an upload keeps, or a
    // buffering bug, would show as growth of the RSS after each.
    const wav = join(dataDir, 'upload.wav')
    // A small upload first: the upload path loaded and compiled, as on a running server.
    writeFileSync(wav, wavFile(10, 8000))
    await uploadFile(server.base, cookie, songId, wav, 'recording')
    const pid = server.child.pid!
    const recording = wavFile(3900, 8000)
    const mb = (recording.length / 2 ** 20).toFixed(1)
    const first = memoryMb(pid)
    const peaks: number[] = []
    const afters: number[] = []
    let sampled = false
    let seconds = 0
    for (let upload = 0; upload < uploads; upload++) {
      // A different last sample each time: the same bytes twice would be stored once.
      recording[recording.length - 1] = upload
      writeFileSync(wav, recording)
      const before = memoryMb(pid)
      // Where the peak cannot be reset, RSS sampled every 20 ms (a short peak may be missed).
      sampled ||= !resetPeak(pid)
      let peak = before
      const sampler = sampled
        ? setInterval(() => { peak = Math.max(peak, memoryMb(pid)) }, 20)
        : undefined
      const started = performance.now()
      await uploadFile(server.base, cookie, songId, wav, 'recording')
      seconds += (performance.now() - started) / 1000
      clearInterval(sampler)
      if (!sampled) peak = memoryMb(pid, 'VmHWM')
      peaks.push(peak - before)
      afters.push(memoryMb(pid) - before)
    }
    const grown = (value: number) => `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(1)}`
    const each = (seconds / uploads).toFixed(2)
    console.log(`\nFiles: ${uploads} uploads of ${mb} MB took ${each} s each; server RSS ` +
      `${first} MB before the first; peak ${peaks.map(grown).join(', ')} MB over the RSS ` +
      `before each (${sampled ? 'sampled every 20 ms' : 'high-water mark'}; target < 10, ` +
      `at most ${grown(Math.max(...peaks))}), ${afters.map(grown).join(', ')} MB after each`)

    // Downloads: a 1 MB sheet (a typical PDF), from Bandstand and from @fastify/static.
    const pdf = join(dataDir, 'sheet.pdf')
    writeFileSync(pdf, pdfFile('Bench', 1024 * 1024))
    const sheet = await uploadFile(server.base, cookie, songId, pdf, 'sheet')
    const hash = sheet.file.sha256
    floor = fork(projectPath('bench', 'static-server.ts'), {
      execArgv: npmStartCommand().flags,
      // npm start's environment too (its malloc settings), not only its node flags.
      env: {
        ...process.env,
        ...npmStartCommand().env,
        BENCH_STATIC_ROOT: join(dataDir, 'files', hash.slice(0, 2))
      },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc']
    })
    const floorAddress = await new Promise<string>((resolve, reject) => {
      floor!.once('message', (m) => resolve((m as { address: string }).address))
      floor!.once('exit', (code) => reject(new Error(`the static server exited (${code})`)))
    })
    // Rounds in turns (Bandstand, the reference, Bandstand, …): on a shared machine the load of
    // other processes drifts within seconds, and one run of each compared loads, not servers.
    const rounds: Array<{ own: Awaited<ReturnType<Load>>, ref: Awaited<ReturnType<Load>> }> = []
    for (let round = 0; round < downloadRounds; round++) {
      rounds.push({
        own: await load({ url: server.base + sheet.file.url, headers: { cookie } }, pid),
        ref: await load({ url: `${floorAddress}/${hash}` }, floor.pid!)
      })
    }
    const own = medianRound(rounds.map((r) => r.own))
    const ref = medianRound(rounds.map((r) => r.ref))
    const ratios = rounds.map((r) => Math.round((r.own.requests.average /
      r.ref.requests.average) * 100))
    const sheetMb = statSync(pdf).size / 2 ** 20
    const row = (name: string, r: Awaited<ReturnType<Load>>) =>
      console.log(`  ${name.padEnd(30)} ${Math.round(r.requests.average).toString().padStart(6)} ` +
        `req/s  ${Math.round(r.requests.average * sheetMb).toString().padStart(6)} MB/s  p99 ` +
        `${r.latency.p99.toFixed(1)} ms  errors ${r.failed}  server CPU ${r.serverCpu} %`)
    console.log(`Files: download of a 1 MB PDF (median of ${downloadRounds} rounds in turns)`)
    row('GET /files/{id}/{name}', own)
    row('@fastify/static (same file)', ref)
    console.log(`  ratio ${Math.round((own.requests.average / ref.requests.average) * 100)} % ` +
      `(target ≥ 80 %; per round ${ratios.join(', ')} %)`)
  } catch (error) {
    console.log(server.output().slice(-3000))
    throw error
  } finally {
    floor?.kill()
    await server.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
