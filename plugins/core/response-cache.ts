import { randomBytes } from 'node:crypto'
import fp from 'fastify-plugin'
import type { FastifyReply, FastifyRequest } from 'fastify'

declare module 'fastify' {
  interface FastifyInstance {
    /** Changes whenever any row of the database changes, through this process or another one (the CLI). */
    dbRevision(): string
    /**
     * Answers a read whose JSON depends only on the database (and `key`): 304 when the client's ETag is
     * current, else the serialized body from memory, built and serialized only after a write.
     */
    sendCachedJson(request: FastifyRequest, reply: FastifyReply, key: string, build: () => unknown): FastifyReply
  }
}

/**
 * Weak comparison (RFC 9110): `W/"x"` and `"x"` match; a list is allowed. `*` only where the caller
 * knows the resource exists.
 */
export function etagMatches(header: string | undefined, etag: string, starMatches = true): boolean {
  if (!header) return false
  const opaque = etag.replace(/^W\//, '')
  return header.split(',').some((candidate) => {
    const c = candidate.trim()
    return (starMatches && c === '*') || c.replace(/^W\//, '') === opaque
  })
}

/** FNV-1a: a short, stable tag for a cache key inside an ETag. */
function keyTag(key: string): string {
  let hash = 0x811c9dc5
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193)
  return (hash >>> 0).toString(36)
}

export interface ResponseCacheOptions {
  maxBytes?: number
}

/**
 * A read-through cache for the hot reads (live mode polled every second by every phone, the big lists).
 * Its validity is the database revision: `total_changes()` counts every row this connection wrote,
 * `data_version` moves when another connection commits, and a per-start id keeps ETags of an earlier run
 * from matching. Any write invalidates everything, so nothing can be stale; reads between writes (the
 * common case on gig night) cost one tiny statement.
 */
export default fp<ResponseCacheOptions>(
  async (app, options) => {
    const maxBytes = options.maxBytes ?? 8 * 1024 * 1024
    const boot = randomBytes(3).toString('hex')
    const revisionStatement = app.sqlite.prepare('SELECT total_changes(), data_version FROM pragma_data_version').raw()
    app.decorate('dbRevision', () => {
      const [changes, external] = revisionStatement.get() as [number, number]
      return `${boot}.${external}.${changes}`
    })

    const entries = new Map<string, { revision: string; body: Buffer }>()
    let bytes = 0
    const remember = (key: string, entry: { revision: string; body: Buffer }) => {
      const old = entries.get(key)
      if (old) bytes -= old.body.length
      entries.delete(key) // re-inserted last: Map order is the LRU order
      if (entry.body.length > maxBytes / 4) return
      entries.set(key, entry)
      bytes += entry.body.length
      for (const [oldest, value] of entries) {
        if (bytes <= maxBytes) break
        entries.delete(oldest)
        bytes -= value.body.length
      }
    }

    app.decorate('sendCachedJson', (request: FastifyRequest, reply: FastifyReply, key: string, build: () => unknown) => {
      const revision = app.dbRevision()
      // The key is part of the tag: the same URL can mean another answer at the same revision (`upcoming`
      // after midnight). A forged tag could only turn a 404 into a 304; `*` is never taken on trust.
      const etag = `W/"${keyTag(key)}.${revision}"`
      reply.header('etag', etag).header('cache-control', 'private, no-cache')
      // No payload at all on a 304 (not even "null"): a content-length would stall keep-alive clients.
      if (etagMatches(request.headers['if-none-match'], etag, false)) return reply.status(304).send(undefined as never)
      let entry = entries.get(key)
      if (entry?.revision !== revision) {
        entry = { revision, body: Buffer.from(reply.serialize(build()) as string) }
      }
      remember(key, entry)
      return reply.type('application/json; charset=utf-8').send(entry.body)
    })
  },
  { name: 'response-cache', dependencies: ['db'] }
)
