import Fastify from 'fastify'
import fastifyCookie from '@fastify/cookie'
import Database from 'better-sqlite3'
import { LIVE_SESSION_SQL } from '#src/repositories/live-sessions.js'

// The reference point: a bare Fastify route answering with the same bytes from memory, in its own
// process like the real server, so each endpoint's ratio shows what Bandstand's work costs.
const bodies = new Map<string, { type: string; bytes: Buffer }>()
const app = Fastify({ logger: false, bodyLimit: 16 * 1024 * 1024 })
app.removeAllContentTypeParsers()
app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body))
app.put('/body/:name', async (request) => {
  const { name } = request.params as { name: string }
  bodies.set(name, {
    type: String(request.headers['x-body-type'] ?? 'application/json'),
    bytes: request.body as Buffer
  })
  return { ok: true }
})
app.get('/bare/:name', async (request, reply) => {
  const body = bodies.get((request.params as { name: string }).name)
  return reply.type(body?.type ?? 'application/json').send(body?.bytes ?? Buffer.from('{}'))
})

// Floors for the 304 path: an empty 304 from bare Fastify, and the same with the cookie read and
// the session lookup (the server's own statement, on the bench database) on every request, as the
// server did before it remembered the check per database revision
// (src/repositories/live-sessions.ts). Nothing Bandstand does can be faster than the first.
await app.register(fastifyCookie)
app.get('/floor/304', (_request, reply) => reply.status(304).send())
const databaseFile = process.env.BENCH_DATABASE
if (databaseFile) {
  const liveSession = new Database(databaseFile).prepare(LIVE_SESSION_SQL)
  // The access token decoded once per token, as the server remembers verified tokens.
  const tokens = new Map<string, { sub: string; sid: number }>()
  app.get('/floor/session-304', (request, reply) => {
    const token = request.cookies.access_token ?? ''
    let payload = tokens.get(token)
    if (!payload) {
      tokens.set(
        token,
        (payload = JSON.parse(
          Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')
        ) as { sub: string; sid: number })
      )
    }
    const row = liveSession.get(payload.sid, Number(payload.sub)) as
      | { expiresAt: string }
      | undefined
    const live = row !== undefined && row.expiresAt > new Date().toISOString()
    return live ? reply.status(304).send() : reply.status(401).send()
  })
}

const address = await app.listen({ port: 0, host: '127.0.0.1' })
process.send?.({ address })
