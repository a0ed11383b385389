import Fastify from 'fastify'

// The reference point: a bare Fastify route answering with the same bytes from memory, in its own
// process like the real server, so each endpoint's ratio shows what Bandstand's work costs.
const bodies = new Map<string, { type: string; bytes: Buffer }>()
const app = Fastify({ logger: false, bodyLimit: 16 * 1024 * 1024 })
app.removeAllContentTypeParsers()
app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body))
app.put('/body/:name', async (request) => {
  const { name } = request.params as { name: string }
  bodies.set(name, { type: String(request.headers['x-body-type'] ?? 'application/json'), bytes: request.body as Buffer })
  return { ok: true }
})
app.get('/bare/:name', async (request, reply) => {
  const body = bodies.get((request.params as { name: string }).name)
  return reply.type(body?.type ?? 'application/json').send(body?.bytes ?? Buffer.from('{}'))
})
const address = await app.listen({ port: 0, host: '127.0.0.1' })
process.send?.({ address })
