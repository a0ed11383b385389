import fp from 'fastify-plugin'

export type RevisionListener = (revision: string) => void

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Calls `listener` with the new database revision after every write, whoever made it: a
     * request of this server or another process (the CLI). Returns the unsubscribe function.
     */
    onDatabaseChange(listener: RevisionListener): () => void
  }
}

export interface DbChangesOptions {
  /** How often the revision is read while someone listens (writes of other processes). */
  pollMs?: number
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Change notification derived from the database revision itself, not from routes announcing what
 * they wrote: a route added tomorrow cannot forget to tell. After any request that may have written
 * (every method but GET, HEAD and OPTIONS) the revision is compared once, on the next turn of the
 * event loop, after the answer went out; a timer catches every other writer within `pollMs`. Both
 * run only while someone listens (live-mode followers), and cost one statement each.
 */
export default fp<DbChangesOptions>(
  async (app, options) => {
    const pollMs = options.pollMs ?? 1_000
    const listeners = new Set<RevisionListener>()
    let known = app.dbRevision()
    let scheduled = false
    let timer: NodeJS.Timeout | undefined

    const check = () => {
      scheduled = false
      if (listeners.size === 0 || !app.sqlite.open) return
      const revision = app.dbRevision()
      if (revision === known) return
      known = revision
      for (const listener of [...listeners]) {
        try {
          listener(revision)
        } catch (err) {
          app.log.error({ err }, 'database change listener failed')
        }
      }
    }
    const schedule = () => {
      if (scheduled || listeners.size === 0) return
      scheduled = true
      setImmediate(check)
    }

    app.addHook('onResponse', (request, _reply, done) => {
      if (!SAFE_METHODS.has(request.method)) schedule()
      done()
    })
    app.addHook('onClose', async () => {
      clearInterval(timer)
      listeners.clear()
    })

    app.decorate('onDatabaseChange', (listener: RevisionListener) => {
      if (listeners.size === 0) known = app.dbRevision()
      listeners.add(listener)
      timer ??= setInterval(schedule, pollMs).unref()
      return () => {
        listeners.delete(listener)
        if (listeners.size === 0) {
          clearInterval(timer)
          timer = undefined
        }
      }
    })
  },
  { name: 'db-changes', fastify: '5.x', dependencies: ['db'] }
)
