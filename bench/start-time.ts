// Start to the first answer (BENCH_PARTS=start): the built server started BENCH_START_RUNS (5)
// times as npm start starts it (its flags and environment) on the bench's seeded database, the
// wall time from spawn to the first 200 of GET /health and the CPU the process used until then
// (target: 1.5 s). Then `npm start` itself once (npm, the prestart build check, the Node launcher).
// BENCH_START_PROFILE=<dir> writes a CPU profile of each start there (node --cpu-prof);
// BENCH_START_FLAGS (space-separated) replaces npm start's node flags, to compare. Alone:
// `node --conditions=bandstand-source --import tsx bench/start-time.ts` (after a build).
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { pathToFileURL } from 'node:url'
import { projectPath } from '#src/project-path.js'
import { freePort, npmStartCommand } from '#test/server-process.js'
import { seedBenchData } from './seed-bench-data.js'

export const START_TARGET_MS = 1500
const runs = Number(process.env.BENCH_START_RUNS ?? 5)
const profileDir = process.env.BENCH_START_PROFILE

/** CPU seconds of a process and of its children that ended (Linux counts 1/100 s). */
function cpuMsOf (pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 10
}

/** Spawn to the first 200 of /health: wall and CPU milliseconds; the process is stopped. */
async function timeStart (
  child: ChildProcess,
  base: string,
  started: number,
  stop: () => unknown = () => child.kill('SIGTERM')
) {
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode})`)
      try {
        if ((await fetch(`${base}/health`)).ok) break
      } catch {
        // not listening yet
      }
      await sleep(5)
    }
    return { wall: performance.now() - started, cpu: cpuMsOf(child.pid!) }
  } finally {
    if (child.exitCode === null) {
      const exited = once(child, 'exit')
      stop()
      await exited
    }
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!

export async function runStartTimeBench (): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bandstand-start-'))
  try {
    await seedBenchData(join(dataDir, 'bandstand.db'))
    const { env, flags: startFlags } = npmStartCommand()
    const flags = process.env.BENCH_START_FLAGS?.split(' ').filter(Boolean) ?? startFlags
    const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []
    const environment = async () => ({
      ...process.env,
      ...env,
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn'
    })
    const samples: Array<{ wall: number; cpu: number }> = []
    for (let i = 0; i < runs; i++) {
      const childEnv = await environment()
      const started = performance.now()
      const args = [...flags, ...profile, projectPath('dist', 'server.js')]
      const child = spawn(process.execPath, args, {
        env: childEnv,
        stdio: ['ignore', 'ignore', 'inherit']
      })
      samples.push(await timeStart(child, `http://127.0.0.1:${childEnv.PORT}`, started))
    }
    const wall = median(samples.map((s) => s.wall))
    const cpu = median(samples.map((s) => s.cpu))
    const mark = wall <= START_TARGET_MS ? 'met' : 'NOT met'
    console.log(`\nstart to first answer (node as npm start runs it, median of ${runs}): ` +
      `${Math.round(wall)} ms wall, ${Math.round(cpu)} ms CPU ` +
      `(<= ${START_TARGET_MS} ms: ${mark}); ` +
      `each: ${samples.map((s) => `${Math.round(s.wall)}/${Math.round(s.cpu)}`).join(', ')}`)
    // The whole `npm start`: npm, prestart's build check, scripts/with-node.sh, then the server.
    const childEnv = await environment()
    const started = performance.now()
    const npm = spawn('npm', ['start'], {
      cwd: projectPath(),
      env: { ...childEnv, PATH: `${dirname(process.execPath)}:${process.env.PATH}` },
      stdio: ['ignore', 'ignore', 'inherit'],
      detached: true
    })
    const whole = await timeStart(npm, `http://127.0.0.1:${childEnv.PORT}`, started,
      () => stopGroup(npm))
    console.log(`npm start (npm, prestart's build check, the server): ${Math.round(whole.wall)} ms`)
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

/** npm does not pass SIGTERM on to its script's shell: the whole process group is stopped. */
function stopGroup (child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGTERM')
  } catch {
    // gone already
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runStartTimeBench()
