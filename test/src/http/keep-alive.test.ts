import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Agent, request as httpRequest } from 'node:http'
import type { Socket } from 'node:net'
import { client, createTestApp, createUser, PASSWORD } from '#test/helpers.js'

interface Answer {
  status: number
  connection: string | undefined
  etag: string | undefined
  socket: Socket
}

/** One request through `agent`; which socket carried it and what Connection said. */
function send (
  agent: Agent,
  base: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method, agent, headers }, (res) => {
      res.resume().on('end', () =>
        resolve({
          status: res.statusCode!,
          connection: res.headers.connection,
          etag: res.headers.etag,
          socket: req.socket!
        }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

// Phones poll the live view every second or two: each poll must reuse its connection, not open a
// new one. Answers served from memory are sent in the same turn as the request event, before Node
// marks a body-less request complete; the early-answer rule (close when the body has not arrived)
// must not mistake them for early answers (a regression that made every cached GET close).
test('reads keep their connection alive: cached answers, 304s, a body that was read', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await createUser(ctx.app, 'erika', 'editor')
  const session = client(ctx.app, editor)
  const login = await session.post('/login', { username: 'erika', password: PASSWORD })
  assert.equal(login.statusCode, 200)
  const base = await ctx.app.listen({ port: 0, host: '127.0.0.1' })
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  t.after(() => agent.destroy())
  const cookie = { cookie: session.jar.header() }

  const answers: Answer[] = []
  answers.push(await send(agent, base, 'GET', '/health'))
  const songs = await send(agent, base, 'GET', '/songs', cookie)
  answers.push(songs)
  const revalidate = { ...cookie, 'if-none-match': songs.etag! }
  answers.push(await send(agent, base, 'GET', '/songs', revalidate))
  answers.push(await send(agent, base, 'GET', '/gigs', cookie))
  answers.push(await send(agent, base, 'GET', '/public/app_config'))
  answers.push(
    await send(
      agent,
      base,
      'POST',
      '/songs',
      { ...cookie, 'content-type': 'application/json' },
      JSON.stringify({ title: 'Superstition', status: 'ready' })
    )
  )
  answers.push(await send(agent, base, 'GET', '/songs', cookie))

  assert.deepEqual(
    answers.map((a) => a.status),
    [200, 200, 304, 200, 200, 201, 200]
  )
  for (const answer of answers) assert.equal(answer.connection, 'keep-alive')
  assert.equal(new Set(answers.map((a) => a.socket)).size, 1, 'one connection for every request')
})
