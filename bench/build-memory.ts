// The build's peak memory (BENCH_PARTS=build, only when named: it rebuilds, about a minute): `npm
// run build` with its processes' memory sampled from /proc every 25 ms. Two figures: the largest
// sum of the tree's RSS at one moment (what the machine must have free), and the largest single
// process's peak (VmHWM: the kernel's own high-water mark, so no spike between samples is missed).
// Budget: 1 GiB for the tree. Alone: `node --conditions=bandstand-source --import tsx
// bench/build-memory.ts`.
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { pathToFileURL } from 'node:url'
import { projectPath } from '#src/project-path.js'
import { descendants } from './children.js'

export const BUILD_MEMORY_BUDGET_MIB = 1024

/** VmRSS and VmHWM of a process in MiB, and its command; undefined when it ended meanwhile. */
function memoryOf (pid: number): { rss: number; peak: number; command: string } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0)
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean)
      .map((word) => word.split('/').at(-1)).slice(0, 3).join(' ')
    return { rss: field('VmRSS') / 1024, peak: field('VmHWM') / 1024, command }
  } catch {
    return undefined
  }
}

export async function runBuildMemoryBench (): Promise<void> {
  const started = performance.now()
  const build = spawn('npm', ['run', 'build'], {
    cwd: projectPath(),
    // npm and every process it starts on the bench's Node.
    env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH}` },
    stdio: ['ignore', 'ignore', 'inherit']
  })
  let treePeak = 0
  let atPeak: string[] = []
  const single = new Map<number, { peak: number; command: string }>()
  const sample = () => {
    let sum = 0
    const now: string[] = []
    for (const pid of [build.pid!, ...descendants(build.pid)]) {
      const memory = memoryOf(pid)
      if (!memory) continue
      sum += memory.rss
      now.push(`${memory.command} ${Math.round(memory.rss)}`)
      if (memory.peak > (single.get(pid)?.peak ?? 0)) single.set(pid, memory)
    }
    if (sum > treePeak) [treePeak, atPeak] = [sum, now]
  }
  const timer = setInterval(sample, 25)
  const code = await new Promise<number | null>((resolve) => build.once('exit', resolve))
  clearInterval(timer)
  if (code !== 0) throw new Error(`npm run build failed (${code})`)
  // The steps' own peaks (tsc, vite, esbuild): which one sets the build's.
  const largest = [...single.values()].sort((a, b) => b.peak - a.peak)
    .filter(({ peak }) => peak >= 50).map(({ peak, command }) => `${command} ${Math.round(peak)}`)
  const mark = treePeak <= BUILD_MEMORY_BUDGET_MIB ? 'met' : 'OVER BUDGET'
  console.log(`\nnpm run build: ${((performance.now() - started) / 1000).toFixed(0)} s; ` +
    `peak RSS of its processes together ${Math.round(treePeak)} MiB ` +
    `(<= ${BUILD_MEMORY_BUDGET_MIB} MiB: ${mark})\n` +
    `  at the peak (MiB): ${atPeak.join(', ')}\n` +
    `  each process's own peak (VmHWM, MiB, >= 50): ${largest.join(', ') || '-'}`)
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runBuildMemoryBench()
