/**
 * The bench's own processes (the server, the bare floor server, wrk, browsers, load generators) end
 * with it, however it ends: the try/finally blocks of the parts stop them on an error that reaches
 * them, but not on an exception thrown in a callback (a crash: the process ends at once) nor on
 * SIGINT or SIGTERM (Ctrl-C, a CI timeout). Then every process below the bench's, read from /proc
 * (the bench runs on Linux), gets SIGTERM; on a signal the bench waits for them and sends SIGKILL
 * to what is left.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'

/** `pid → parent pid` of every running process; a zombie (ended, not yet reaped) counts as gone. */
function parents (): Map<number, number> {
  const parentOf = new Map<number, number>()
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      // "pid (command) state ppid …": the command may hold spaces and parentheses.
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (state !== 'Z') parentOf.set(Number(name), Number(ppid))
    } catch {
      // ended meanwhile
    }
  }
  return parentOf
}

/** Every process below `root`, children before their own children. */
export function descendants (root = process.pid): number[] {
  const parentOf = parents()
  const found: number[] = []
  let level = [root]
  while (level.length > 0) {
    level = [...parentOf].filter(([, ppid]) => level.includes(ppid)).map(([pid]) => pid)
    found.push(...level)
  }
  return found
}

const running = (pid: number) => parents().has(pid)

function signal (pids: number[], name: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, name)
    } catch {
      // already gone
    }
  }
}

/** SIGTERM to every process below the bench; SIGKILL to those still there after `graceMs`. */
export async function stopChildren (graceMs = 5_000): Promise<void> {
  const pids = descendants()
  signal(pids, 'SIGTERM')
  const deadline = Date.now() + graceMs
  while (pids.some(running) && Date.now() < deadline) await sleep(50)
  signal(pids.filter(running), 'SIGKILL')
}

let stoppedBy: NodeJS.Signals | null = null
/**
 * Whether a signal is ending the bench: its handler exits with the signal's code once the children
 * are gone. A request to a server stopped meanwhile fails; that error is no failure of the bench.
 */
export const stoppingOnSignal = () => stoppedBy !== null

/** Installs the clean-up: on exit (also after an uncaught exception), SIGINT and SIGTERM. */
export function stopChildrenOnExit (): void {
  // `exit` listeners run synchronously: the signal is sent, the servers shut down on their own.
  process.once('exit', () => signal(descendants(), 'SIGTERM'))
  for (const [name, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    process.once(name, () => {
      stoppedBy = name
      console.error(`\nbench: ${name}, stopping its processes`)
      void stopChildren().finally(() => process.exit(code))
    })
  }
}
