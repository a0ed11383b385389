import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { once } from 'node:events'
import { setTimeout as sleep } from 'node:timers/promises'
import { projectPath } from '#src/project-path.js'

/** A free TCP port on loopback. */
export async function freePort (): Promise<number> {
  const server = createServer()
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

export interface ServerProcess {
  child: ChildProcess
  base: string
  output: () => string
  stop(signal?: NodeJS.Signals): Promise<number | null>
}

/**
 * How `npm start` runs the server (package.json's start script without the build, the one
 * source): its environment variables, its node options (e.g. the 128 MB heap) and the arguments to
 * spawn node with. Tests and benchmarks start the server exactly so.
 */
export function npmStartCommand (): {
  env: Record<string, string>
  flags: string[]
  args: string[]
} {
  const pkg = JSON.parse(readFileSync(projectPath('package.json'), 'utf8'))
  const words = String(pkg.scripts.start).trim().split(/\s+/)
  const node = words.indexOf('node')
  // Before `node`: the variables, and the launcher that only picks which Node runs it.
  const env = Object.fromEntries(words.slice(0, node).filter((word) => /^[A-Z_]+=/.test(word))
    .map((word) => word.split('=', 2)))
  const args = words.slice(node + 1)
  const flags = args.filter((word) => word.startsWith('--'))
  return { env, flags, args: [...args.slice(0, -1), projectPath(args.at(-1)!)] }
}

/**
 * Starts the built server as `npm start` does (built by `npm test`) and waits for /health.
 */
export async function startServer (
  env: Record<string, string>,
  options: { cwd?: string } = {}
): Promise<ServerProcess> {
  // A fixed PORT restarts a server where its clients expect it (live mode's restart test).
  const port = env.PORT ? Number(env.PORT) : await freePort()
  const start = npmStartCommand()
  const child = spawn(process.execPath, start.args, {
    cwd: options.cwd,
    env: {
      ...process.env,
      ...start.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      ...env
    },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let output = ''
  child.stdout!.on('data', (d) => (output += d))
  child.stderr!.on('data', (d) => (output += d))
  const base = `http://127.0.0.1:${port}`
  // Generous: it only keeps a server that never comes up from hanging the run (a start takes
  // seconds, many times that on a machine shared by many jobs).
  const deadline = Date.now() + 120_000
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`server exited early (${child.exitCode}):\n${output}`)
    }
    if (Date.now() > deadline) {
      // A child left running would keep the test's process, and so the whole run, from ending.
      child.kill('SIGKILL')
      throw new Error(`server did not answer /health:\n${output}`)
    }
    try {
      const health = await fetch(`${base}/health`, { signal: AbortSignal.timeout(10_000) })
      if (health.ok) break
    } catch {
      // Not listening yet, or too busy to answer in time: asked again.
    }
    await sleep(20)
  }
  return {
    child,
    base,
    output: () => output,
    async stop (signal = 'SIGTERM') {
      // A process ended by a signal has a signalCode and no exitCode.
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode
      const exited = once(child, 'exit')
      child.kill(signal)
      const [code] = (await exited) as [number | null]
      return code
    }
  }
}

/** Logs in over HTTP; returns the Cookie header value to send back. */
export async function loginOverHttp (
  base: string,
  username: string,
  password: string
): Promise<string> {
  const response = await fetch(`${base}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password })
  })
  if (!response.ok) throw new Error(`login failed: ${response.status} ${await response.text()}`)
  return response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ')
}
