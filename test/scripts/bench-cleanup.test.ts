import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { connect } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { projectPath } from '#src/project-path.js'

// The bench stops the server and the floor server it started however it ends: a crash (an
// exception thrown in a callback, where no finally block runs), SIGTERM (a CI timeout) or SIGINT.
// They were left running, listening on their ports. Needs the build (dist/server.js) and wrk,
// like bench-smoke.test.ts.
const sourceConditions = process.execArgv.filter((arg) => arg.startsWith('--conditions='))

/** A process that still runs (a zombie, ended but not reaped, does not). */
function running (pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}

/** Whether anything accepts a connection on the address. */
function listening (url: string): Promise<boolean> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname)
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}

/**
 * Runs the bench's HTTP part; `stop` ends it once it says which processes it started. Answers its
 * exit code and those processes.
 */
async function benchEndedBy (stop: 'crash' | 'SIGTERM' | 'SIGINT') {
  const bench = spawn(
    process.execPath,
    [...sourceConditions, '--import', 'tsx', projectPath('bench', 'run.ts')],
    {
      cwd: projectPath(),
      env: {
        ...process.env,
        BENCH_PARTS: 'http',
        BENCH_DURATION: '1',
        BENCH_WARMUP: '0',
        BENCH_CONNECTIONS: '10',
        ...(stop === 'crash' ? { BENCH_CRASH_AFTER_START: '1' } : {})
      },
      stdio: ['ignore', 'pipe', 'pipe']
    }
  )
  let output = ''
  bench.stderr.on('data', (chunk) => (output += chunk))
  const exited = once(bench, 'exit') as Promise<[number | null, NodeJS.Signals | null]>
  const started = await new Promise<RegExpExecArray>((resolve, reject) => {
    bench.stdout.on('data', (chunk) => {
      output += chunk
      const line = /bench processes: server pid (\d+) at (\S+), floor pid (\d+) at (\S+)/
        .exec(output)
      if (line) resolve(line)
    })
    void exited.then(() => reject(new Error(`the bench ended before its servers ran:\n${output}`)))
  })
  if (stop !== 'crash') bench.kill(stop)
  const [code] = await exited
  const [, serverPid, serverUrl, floorPid, floorUrl] = started
  return {
    code,
    output,
    processes: [
      { name: 'server', pid: Number(serverPid), url: serverUrl! },
      { name: 'floor server', pid: Number(floorPid), url: floorUrl! }
    ]
  }
}

for (const [stop, expectedCode] of [['crash', 1], ['SIGTERM', 143], ['SIGINT', 130]] as const) {
  test(`the bench stops its servers when it ends by ${stop}`, { timeout: 180_000 }, async () => {
    const { code, output, processes } = await benchEndedBy(stop)
    assert.equal(code, expectedCode, output)
    if (stop === 'crash') assert.match(output, /BENCH_CRASH_AFTER_START: crashing on purpose/)
    // SIGTERM went out as the bench ended; a server closes within a few seconds.
    const deadline = Date.now() + 15_000
    const gone = async ({ pid, url }: { pid: number; url: string }) =>
      !running(pid) && !(await listening(url))
    while (Date.now() < deadline && !(await Promise.all(processes.map(gone))).every(Boolean)) {
      await sleep(100)
    }
    const left = processes.filter(({ pid }) => running(pid))
    // A failed run does not leave them to the next test (nor hold this one's pipes open).
    for (const { pid } of left) process.kill(pid, 'SIGKILL')
    assert.deepEqual(left.map(({ name, pid }) => `${name} (pid ${pid})`), [], output)
    for (const { url } of processes) {
      assert.equal(await listening(url), false, `nothing listens at ${url} any more`)
    }
  })
}
