import { createHash } from 'node:crypto'
import { promisify } from 'node:util'
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib'
import fp from 'fastify-plugin'
import { negotiate } from '@fastify/accept-negotiator'
import { LRUCache } from 'lru-cache'
import type { FastifyReply, FastifyRequest } from 'fastify'

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Answers a read whose JSON depends only on the database (and `key`): 304 when the client's
     * ETag is current, else the serialized body from memory, built and serialized only after a
     * write.
     */
    sendCachedJson(
      request: FastifyRequest,
      reply: FastifyReply,
      key: string,
      build: () => unknown
    ): FastifyReply | Promise<FastifyReply>
    /** The same for a body that is already text or bytes (the calendar feed). */
    sendCached(
      request: FastifyRequest,
      reply: FastifyReply,
      key: string,
      contentType: string,
      build: () => string | Buffer
    ): FastifyReply | Promise<FastifyReply>
    /**
     * The same for an answer of megabytes (the gig's charts): `build` gives its bytes in parts
     * and a turn of the event loop between them; the parts are digested as they come.
     * Requests for the same answer while it is built share the build.
     */
    sendCachedParts(
      request: FastifyRequest,
      reply: FastifyReply,
      key: string,
      contentType: string,
      build: () => AsyncIterable<Buffer>
    ): Promise<FastifyReply>
    /** The two halves of sendCached, for answers that are also used outside a request. */
    responseCache: {
      /**
       * The answer for `key` at `revision`: from memory, or built now and kept. A build that
       * throws keeps nothing.
       */
      answer(key: string, revision: string, build: () => string | Buffer): CachedAnswer
      /**
       * 304 when If-None-Match names it, else its body in the client's preferred encoding (a
       * large body is compressed off the main thread: then a promise).
       */
      send(
        request: FastifyRequest,
        reply: FastifyReply,
        answer: CachedAnswer,
        contentType: string
      ): FastifyReply | Promise<FastifyReply>
    }
  }
}

/**
 * Weak comparison (RFC 9110): `W/"x"` and `"x"` match; a list is allowed. `*` only where the caller
 * knows the resource exists.
 */
export function etagMatches (
  header: string | undefined,
  etag: string,
  starMatches = true
): boolean {
  if (!header) return false
  if (header === etag) return true // what a polling client sends back
  const opaque = etag.replace(/^W\//, '')
  return header.split(',').some((candidate) => {
    const c = candidate.trim()
    return (starMatches && c === '*') || c.replace(/^W\//, '') === opaque
  })
}

// br first: smaller than gzip for the same CPU at the quality used here, so it wins a tie.
type Encoding = 'br' | 'gzip'
const ENCODINGS: Encoding[] = ['br', 'gzip']
/** A serialized answer as the cache keeps it. */
export interface CachedAnswer {
  readonly key: string
  /** The database revision it was built at. */
  readonly revision: string
  readonly body: Buffer
  /** Names the bytes: the same answer keeps its tag across revisions and restarts. */
  readonly etag: string
  /** Compressed once per revision, on first demand: a 300 KB list is not compressed per request. */
  readonly encoded: Partial<Record<Encoding, Buffer>>
}
const COMPRESS_FROM_BYTES = 1024

/** The client's preferred encoding among br and gzip (br wins a tie), or null for identity. */
const preferredEncoding = (header: string | undefined): Encoding | null =>
  header ? (negotiate(header, ENCODINGS) as Encoding | null) : null

const BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }
const GZIP = { level: 6 }
const compress = (encoding: Encoding, body: Buffer) =>
  encoding === 'br' ? brotliCompressSync(body, BROTLI) : gzipSync(body, GZIP)
const brotliAsync = promisify(brotliCompress)
const gzipAsync = promisify(gzip)
/**
 * From this size an answer is compressed in libuv's thread pool: the gig's charts at their cap
 * (8 MiB) took 180–520 ms of the main thread, every other request waiting. Below it the
 * synchronous call is cheaper than the hand-over.
 */
const COMPRESS_ASYNC_FROM_BYTES = 256 * 1024
const compressAsync = (encoding: Encoding, body: Buffer): Promise<Buffer> =>
  encoding === 'br' ? brotliAsync(body, BROTLI) : gzipAsync(body, GZIP)

/** FNV-1a: a short, stable tag for a cache key inside an ETag. */
function keyTag (key: string): string {
  let hash = 0x811c9dc5
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193)
  return (hash >>> 0).toString(36)
}

/**
 * The ETag of a cached answer: the key and a digest of the bytes (120 bits). A write that leaves an
 * answer as it was (another gig, a survey) leaves its tag too, so pollers get their 304; the key is
 * part of it, as two URLs can give the same bytes.
 */
export const entityTag = (key: string, body: Buffer) =>
  digestTag(key, createHash('sha256').update(body).digest('base64url'))
const digestTag = (key: string, digest: string) => `W/"${keyTag(key)}.${digest.slice(0, 20)}"`

/** The opaque part of a weak ETag (what an SSE event id carries). */
export const opaqueTag = (etag: string) => etag.slice(3, -1)

export interface ResponseCacheOptions {
  maxBytes?: number
}

/**
 * A read-through cache for the hot reads (live mode polled every second by every phone, the big
 * lists). Its validity is the database revision (see the db plugin): any write, by this process or
 * the CLI, makes every answer be built again on its next read, so nothing can be stale. Reads
 * between writes (the common case on gig night) cost no statement of their own: the revision comes
 * with the session check.
 */
export default fp<ResponseCacheOptions>(
  async (app, options) => {
    const maxBytes = options.maxBytes ?? 8 * 1024 * 1024
    const size = (entry: CachedAnswer) =>
      entry.body.length + (entry.encoded.br?.length ?? 0) + (entry.encoded.gzip?.length ?? 0)
    // Least recently used out beyond maxBytes; one answer may take at most a quarter of it.
    const entries = new LRUCache<string, CachedAnswer>({
      maxSize: maxBytes,
      maxEntrySize: maxBytes / 4,
      sizeCalculation: size
    })

    const answer = (key: string, revision: string, build: () => string | Buffer) => {
      const cached = entries.get(key)
      if (cached?.revision === revision) return cached
      // Built before any header is set: a build that fails (a missing gig: 404) answers without
      // an ETag, and a 304 is only ever given for an answer that exists at this revision.
      const built = build()
      const body = Buffer.isBuffer(built) ? built : Buffer.from(built)
      const entry: CachedAnswer = { key, revision, body, etag: entityTag(key, body), encoded: {} }
      entries.set(key, entry)
      return entry
    }

    /** Builds of sendCachedParts under way, by key and revision. */
    const building = new Map<string, Promise<CachedAnswer>>()
    const answerParts = (key: string, revision: string, build: () => AsyncIterable<Buffer>) => {
      const cached = entries.get(key)
      if (cached?.revision === revision) return cached
      const id = `${revision}:${key}`
      let pending = building.get(id)
      if (!pending) {
        pending = (async () => {
          const hash = createHash('sha256')
          const parts: Buffer[] = []
          for await (const part of build()) {
            hash.update(part)
            parts.push(part)
          }
          const body = Buffer.concat(parts)
          const etag = digestTag(key, hash.digest('base64url'))
          const entry: CachedAnswer = { key, revision, body, etag, encoded: {} }
          entries.set(key, entry)
          return entry
        })().finally(() => building.delete(id))
        building.set(id, pending)
      }
      return pending
    }

    const send = (
      request: FastifyRequest,
      reply: FastifyReply,
      entry: CachedAnswer,
      contentType: string
    ) => {
      reply.header('etag', entry.etag).header('cache-control', 'private, no-cache')
      // `*` is never taken on trust. No payload at all on a 304 (not even "null"): a
      // content-length would stall keep-alive clients.
      if (etagMatches(request.headers['if-none-match'], entry.etag, false)) {
        return reply.status(304).send(undefined as never)
      }
      reply.type(contentType).header('vary', 'accept-encoding')
      const encoding =
        entry.body.length >= COMPRESS_FROM_BYTES
          ? preferredEncoding(request.headers['accept-encoding'])
          : null
      if (!encoding) return reply.send(entry.body)
      const keep = (payload: Buffer) => {
        entry.encoded[encoding] = payload
        // Stored again so that its size is counted again (unless a newer revision replaced it).
        if (entries.peek(entry.key) === entry) entries.set(entry.key, entry)
        // A Content-Encoding already set tells @fastify/compress to leave the bytes alone.
        return reply.header('content-encoding', encoding).send(payload)
      }
      const payload = entry.encoded[encoding]
      if (payload) return reply.header('content-encoding', encoding).send(payload)
      if (entry.body.length < COMPRESS_ASYNC_FROM_BYTES) return keep(compress(encoding, entry.body))
      return compressAsync(encoding, entry.body).then(keep)
    }

    const sendCached = (
      request: FastifyRequest,
      reply: FastifyReply,
      key: string,
      contentType: string,
      build: () => string | Buffer
    ) =>
      // The session check already read it: the revision is read before the body is built, so a
      // write in between can only make the entry look older than it is (rebuilt once more), never
      // newer.
      send(request, reply, answer(key, request.dbRevision ?? app.dbRevision(), build), contentType)

    app.decorate('responseCache', { answer, send })
    app.decorate(
      'sendCachedParts',
      async (
        request: FastifyRequest,
        reply: FastifyReply,
        key: string,
        contentType: string,
        build: () => AsyncIterable<Buffer>
      ) => {
        const revision = request.dbRevision ?? app.dbRevision()
        return send(request, reply, await answerParts(key, revision, build), contentType)
      }
    )
    app.decorate('sendCached', sendCached)
    app.decorate(
      'sendCachedJson',
      (request: FastifyRequest, reply: FastifyReply, key: string, build: () => unknown) =>
        sendCached(request, reply, key, JSON_TYPE, () => reply.serialize(build()) as string)
    )
  },
  // The session check reads the revision for it (request.dbRevision); without it, it reads its own.
  { name: 'response-cache', fastify: '5.x', dependencies: ['db', 'session'] }
)

export const JSON_TYPE = 'application/json; charset=utf-8'
