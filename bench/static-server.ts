import Fastify from 'fastify'
import fastifyStatic from '@fastify/static'

// The reference for file downloads: @fastify/static serving the stored files' directory, with its
// defaults (ETag, Last-Modified, Range), in its own process like the real server.
const app = Fastify({ logger: false })
await app.register(fastifyStatic, { root: process.env.BENCH_STATIC_ROOT! })
const address = await app.listen({ port: 0, host: '127.0.0.1' })
process.send?.({ address })
