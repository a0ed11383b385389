import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { once } from 'node:events'
import { request as httpRequest } from 'node:http'
import { loginOverHttp, startServer } from '#test/server-process.js'

const ADMIN_PASSWORD = 'graceful shutdown admin password 2026'

async function call (base: string, cookie: string, method: string, path: string, body?: unknown) {
  const response = await fetch(base + path, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return response
}

/**
 * A request the server has provably received before we go on: `Expect: 100-continue` makes Node
 * answer "100 Continue" once it parsed the headers and handed the request to Fastify; the body
 * follows on `finish()`.
 */
async function receivedRequest (
  base: string,
  cookie: string,
  method: string,
  path: string,
  body?: unknown
) {
  const payload = body === undefined ? '' : JSON.stringify(body)
  const req = httpRequest(base + path, {
    method,
    agent: false,
    headers: {
      cookie,
      expect: '100-continue',
      'content-length': Buffer.byteLength(payload),
      ...(payload ? { 'content-type': 'application/json' } : {})
    }
  })
  const response = new Promise<{ status: number; body: Buffer }>((resolve, reject) => {
    req.on('error', reject)
    req.on('response', (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks) }))
      res.on('error', reject)
    })
  })
  response.catch(() => {})
  req.flushHeaders()
  await once(req, 'continue')
  return {
    finish () {
      req.end(payload)
      return response
    }
  }
}

async function created<T = any> (response: Response): Promise<T> {
  const text = await response.text()
  assert.ok(
    response.status === 201 || response.status === 200,
    `expected 2xx, got ${response.status}: ${text}`
  )
  return JSON.parse(text) as T
}

test(
  'SIGTERM drains the in-flight request, ends event streams, exits 0, and the data dir restarts',
  async (t) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bandstand-shutdown-'))
    t.after(() => rmSync(dataDir, { recursive: true, force: true }))
    const env = { DATA_DIR: dataDir, ADMIN_PASSWORD }
    const server = await startServer(env)
    t.after(() => server.stop('SIGKILL'))
    const { base } = server
    const cookie = await loginOverHttp(base, 'admin', ADMIN_PASSWORD)

    const songIds: number[] = []
    for (let i = 0; i < 40; i++) {
      const song = await created(
        await call(base, cookie, 'POST', '/songs', {
          title: `Drain ${String(i).padStart(2, '0')}`,
          status: 'ready',
          durationSeconds: 180 + i
        })
      )
      songIds.push(song.id)
    }
    const gig = await created(
      await call(base, cookie, 'POST', '/gigs', {
        name: 'Shutdown Night',
        date: '2026-09-12',
        startTime: '20:00'
      })
    )
    await created(
      await call(base, cookie, 'PUT', `/gigs/${gig.id}/setlist`, {
        version: 0,
        sets: [
          { name: 'Set 1', entries: songIds.slice(0, 20).map((songId) => ({ songId })) },
          { name: 'Set 2', entries: songIds.slice(20).map((songId) => ({ songId })) }
        ]
      })
    )

    // A live-mode follower: the stream stays open until the server ends it.
    const stream = await fetch(`${base}/gigs_lm/${gig.id}/events`, { headers: { cookie } })
    assert.equal(stream.status, 200)
    const reader = stream.body!.getReader()
    const first = await reader.read()
    assert.equal(first.done, false, 'the stream delivers its first bytes')
    let streamText = new TextDecoder().decode(first.value)
    const streamEnded = (async () => {
      for (;;) {
        const chunk = await reader.read()
        if (chunk.done) return streamText
        streamText += new TextDecoder().decode(chunk.value)
      }
    })()

    // Two requests the server has received when SIGTERM arrives: a PDF (rendered in a worker, takes
    // a while) and a live-mode PUT whose body is still to come, so it is certainly in flight during
    // the shutdown.
    const setlistNow = await created(await call(base, cookie, 'GET', `/gigs/${gig.id}/setlist`))
    const entryId = setlistNow.sets[0].entries[0].id
    const pdf = await receivedRequest(base, cookie, 'GET', `/gigs/${gig.id}/setlist.pdf`)
    const put = await receivedRequest(base, cookie, 'PUT', `/gigs_lm/${gig.id}/`, {
      entryId,
      status: 'played',
      rating: 3
    })
    const exited = once(server.child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>
    server.child.kill('SIGTERM')
    const pdfDone = pdf.finish()
    // Give the signal a head start over the body, so the server is already closing when it reads
    // it.
    await new Promise((resolve) => setTimeout(resolve, 50))
    const putDone = await put.finish()
    assert.equal(
      putDone.status,
      200,
      `the PUT in flight at SIGTERM is answered: ${putDone.body.toString()}`
    )
    assert.equal(JSON.parse(putDone.body.toString()).entry.status, 'played')
    const pdfRes = await pdfDone
    assert.equal(pdfRes.status, 200, 'the PDF in flight at SIGTERM is answered')
    assert.equal(pdfRes.body.subarray(0, 5).toString('latin1'), '%PDF-', 'and answered completely')

    const text = await streamEnded
    assert.match(text, /event: snapshot/, 'the follower had its snapshot before the stream ended')

    const [code, signal] = await exited
    assert.equal(signal, null, `the process ended by itself, not by a signal:\n${server.output()}`)
    assert.equal(code, 0, `exit code 0:\n${server.output()}`)

    // The data directory is fine for the next start: same gig, same setlist.
    const again = await startServer(env)
    t.after(() => again.stop())
    const cookie2 = await loginOverHttp(again.base, 'admin', ADMIN_PASSWORD)
    const setlist = await created(await call(again.base, cookie2, 'GET', `/gigs/${gig.id}/setlist`))
    assert.equal(setlist.sets.length, 2)
    assert.equal(setlist.sets[0].entries.length + setlist.sets[1].entries.length, 40)
    const live = await created(await call(again.base, cookie2, 'GET', `/gigs_lm/${gig.id}`))
    const entry = live.sets[0].entries.find((e: { id: number }) => e.id === entryId)
    assert.equal(entry.status, 'played', 'the write drained at shutdown is stored')
  }
)

test('an idle keep-alive connection does not hold up the shutdown', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'bandstand-shutdown-'))
  t.after(() => rmSync(dataDir, { recursive: true, force: true }))
  const server = await startServer({ DATA_DIR: dataDir, ADMIN_PASSWORD })
  t.after(() => server.stop('SIGKILL'))
  const cookie = await loginOverHttp(server.base, 'admin', ADMIN_PASSWORD)
  // An idle keep-alive connection (fetch pools them) must not keep the process alive.
  assert.equal((await call(server.base, cookie, 'GET', '/me')).status, 200)
  const exited = once(server.child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>
  server.child.kill('SIGTERM')
  const [code, signal] = await exited
  assert.equal(signal, null)
  assert.equal(code, 0, server.output())
  await assert.rejects(fetch(`${server.base}/health`), 'nothing listens any more')
})
