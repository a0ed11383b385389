import { test } from 'node:test'
import assert from 'node:assert/strict'
import { once } from 'node:events'
import { connect, type AddressInfo } from 'node:net'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { setTimeout as sleep } from 'node:timers/promises'
import { createHttpServer } from '#src/http/http-server.js'

// The idle timeout shortened to a fifth of a second: the server's answers take longer.
const IDLE_MS = 200

async function serve (
  t: { after(fn: () => unknown): void },
  handler: (request: IncomingMessage, response: ServerResponse) => void
) {
  const { server } = createHttpServer(handler, { connectionTimeout: IDLE_MS })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  t.after(() => server.close())
  return (server.address() as AddressInfo).port
}

/** Sends `raw` and collects what the server writes until it closes the connection. */
async function exchange (port: number, raw: string): Promise<string> {
  const socket = connect(port, '127.0.0.1')
  let received = ''
  socket.on('data', (chunk) => (received += chunk))
  socket.on('error', () => {})
  socket.write(raw)
  await once(socket, 'close')
  return received
}

test('an answer the server works on longer than the idle timeout still reaches the client',
  async (t) => {
    // Three idle timeouts without a byte either way: a render waiting for a worker looks so.
    const port = await serve(t, (_request, response) => {
      void sleep(3 * IDLE_MS).then(() => response.end('late answer'))
    })
    const answer = await exchange(port,
      'GET /gigs/1/songbook.pdf HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n')
    assert.match(answer, /^HTTP\/1\.1 200 OK\r\n/)
    assert.match(answer, /\r\n\r\nlate answer$/)
  })

test('a client that withholds the rest of its body is cut after the idle timeout, unanswered',
  async (t) => {
    let requests = 0
    // Never answers: only the idle timeout ends this connection.
    const port = await serve(t, () => requests++)
    const answer = await exchange(port,
      'PUT /songs/1 HTTP/1.1\r\nhost: x\r\ncontent-length: 100\r\n\r\n{"title":')
    assert.equal(answer, '')
    assert.equal(requests, 1)
  })

test('an answer stalled after its start is cut after the idle timeout',
  async (t) => {
    // Headers and a first chunk, then no traffic: as when a client stops reading a download.
    const port = await serve(t, (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' })
      response.write('first chunk')
    })
    const answer = await exchange(port, 'GET /gigs/1/charts.zip HTTP/1.1\r\nhost: x\r\n\r\n')
    assert.match(answer, /^HTTP\/1\.1 200 OK\r\n/)
    assert.match(answer, /first chunk/)
  })
