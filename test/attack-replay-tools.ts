// The attack replay's server as `npm start` runs it, and its clients: members with sessions
// seeded into the database, raw sockets, API calls and memory readings
// (test/src/http/attack-replay.test.ts).
import assert from 'node:assert/strict'
import { createHmac } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '#src/db/client.js'
import { users } from '#src/db/schema.js'
import { createSession } from '#src/repositories/sessions.js'
import { npmStartCommand, startServer, type ServerProcess } from '#test/server-process.js'

const JWT_SECRET = 'attack-replay-jwt-secret-attack-replay-jwt-secret'
export const ADMIN_PASSWORD = 'attack replay admin password 2026'

/**
 * `npm start` as package.json says it: its environment and its V8 flags (startServer passes them on
 * the command line; NODE_OPTIONS repeats those Node accepts there, for any process the server
 * starts — `--no-maglev` and `--optimize-for-size` are not among them, and Node refuses to start
 * with them in NODE_OPTIONS).
 */
export function npmStartEnv (): Record<string, string> {
  const { env, flags } = npmStartCommand()
  const allowed = flags.filter((flag) =>
    process.allowedNodeEnvironmentFlags.has(flag.split('=')[0]!))
  return { ...env, NODE_OPTIONS: allowed.join(' ') }
}

export interface Replay {
  server: ServerProcess
  dir: string
  base: string
  port: number
}

export async function startReplay (
  t: { after(fn: () => unknown): void },
  env: Record<string, string> = {},
  dir = mkdtempSync(join(tmpdir(), 'bandstand-replay-'))
): Promise<Replay> {
  const server = await startServer({
    ...npmStartEnv(),
    DATA_DIR: dir,
    JWT_SECRET,
    ADMIN_PASSWORD,
    ...env
  })
  t.after(async () => {
    await server.stop()
    rmSync(dir, { recursive: true, force: true })
  })
  return { server, dir, base: server.base, port: Number(new URL(server.base).port) }
}

export async function assertAlive ({ server }: Replay): Promise<void> {
  assert.equal(server.child.exitCode, null, `the server process is alive:\n${server.output()}`)
  const health = await fetch(`${server.base}/health`)
  assert.equal(health.status, 200)
  assert.equal(((await health.json()) as { status: string }).status, 'ok')
}

export function rssMb (pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1])
  return kb / 1024
}

/** An HS256 access token as the server signs them (sub, sid, iat, exp). */
export function accessToken (userId: number, sessionId: number): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
  const now = Math.floor(Date.now() / 1000)
  const body = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({
    sub: String(userId),
    sid: sessionId,
    iat: now,
    exp: now + 900
  })}`
  return `${body}.${createHmac('sha256', JWT_SECRET).update(body).digest('base64url')}`
}

/**
 * Members with live sessions, written into the running server's database (the replay needs more
 * sessions than /login's rate limit gives one address in a minute). Returns one cookie per session.
 */
let seeded = 0
export function seedMembers (dir: string, members: number, sessionsEach: number): string[][] {
  const handle = openDatabase(join(dir, 'bandstand.db'), { migrate: false })
  try {
    const stamp = new Date().toISOString()
    return Array.from({ length: members }, () => {
      const i = seeded++
      const { id } = handle.db
        .insert(users)
        .values({
          username: `replay${i}`,
          displayName: `Replay ${i}`,
          role: 'member',
          passwordHash: 'not-a-hash: these members never log in',
          createdAt: stamp,
          updatedAt: stamp
        })
        .returning({ id: users.id })
        .get()
      return Array.from({ length: sessionsEach }, () => {
        const { session } = createSession(handle.db, id, new Date(), { userAgent: 'replay' })
        return `access_token=${accessToken(id, session.id)}`
      })
    })
  } finally {
    handle.close()
  }
}

export async function api (
  base: string,
  cookie: string,
  method: string,
  path: string,
  body?: unknown
): Promise<{ status: number; json: any }> {
  const response = await fetch(base + path, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  return { status: response.status, json: text ? JSON.parse(text) : null }
}

/** A gig with a 60-song setlist in four sets, as in the review. */
export async function liveGig (base: string, admin: string) {
  const songIds: number[] = []
  for (let i = 0; i < 60; i++) {
    const song = await api(base, admin, 'POST', '/songs', {
      title: `Lied ${i + 1} über die Brücke`,
      status: 'ready',
      durationSeconds: 180 + i
    })
    songIds.push(song.json.id)
  }
  const gig = (await api(base, admin, 'POST', '/gigs', { name: 'Stadtfest', date: '2030-07-04' }))
    .json
  const setlist = await api(base, admin, 'PUT', `/gigs/${gig.id}/setlist`, {
    version: 0,
    sets: [0, 1, 2, 3].map((s) => ({
      name: `Set ${s + 1}`,
      entries: songIds.slice(s * 15, s * 15 + 15).map((songId) => ({ songId }))
    }))
  })
  assert.equal(setlist.status, 200)
  return { gigId: gig.id as number, entryIds: setlist.json.sets[0].entries.map((e: any) => e.id) }
}

/** A raw HTTP/1.1 request on its own socket; `read` false: the answer is never read. */
export function rawRequest (
  port: number,
  head: string,
  options: { read?: boolean; body?: Buffer } = {}
): { socket: Socket; closed: Promise<void>; firstBytes: Promise<string> } {
  const socket = connect(port, '127.0.0.1')
  socket.on('error', () => {})
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
  const firstBytes = new Promise<string>((resolve) => {
    socket.once('data', (chunk) => {
      resolve(chunk.toString('latin1'))
      if (options.read === false) socket.pause()
    })
    closed.then(() => resolve(''))
  })
  if (options.read !== false) socket.on('data', () => {})
  socket.write(head)
  if (options.body) socket.write(options.body)
  return { socket, closed, firstBytes }
}

export const eventsRequest = (gigId: number, cookie: string) =>
  `GET /gigs_lm/${gigId}/events HTTP/1.1\r\nHost: localhost\r\nCookie: ${cookie}\r\n\r\n`
