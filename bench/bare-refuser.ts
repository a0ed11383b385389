import Fastify from 'fastify'

// The floor of bench/documents.ts's flood: bare Fastify in its own process (started with the same
// node options as `npm start`), answering /health and refusing every other GET at once with a JSON
// body like Bandstand's 429. What a flood costs here is what 2,000 connections cost on this
// machine, whatever the server does with them.
const app = Fastify({ logger: false })
app.get('/health', async () => ({ status: 'ok', database: 'ok', version: '0.0.0' }))
app.get('/*', async (_request, reply) =>
  reply.status(429).header('retry-after', '1').send({
    statusCode: 429,
    error: 'Too Many Requests',
    code: 'RATE_LIMITED',
    message: 'at most 4 documents of one member are prepared at once'
  }))
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' })
