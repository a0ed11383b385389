import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { StringEnum } from '#schemas/common.js'
import { APP_COMMIT, APP_VERSION } from '#src/version.js'
import { PROBE_INTERVAL_MS } from '#src/storage/storage-health.js'

const HEALTH_STATUSES = ['ok', 'degraded'] as const
const DATABASE_STATES = ['ok', 'unreachable', 'not writable'] as const

const Health = Type.Object({
  status: StringEnum(HEALTH_STATUSES),
  database: StringEnum(DATABASE_STATES, {
    description: `the last read, and the write probe (at most every ${PROBE_INTERVAL_MS / 1000} s)`
  }),
  reasons: Type.Array(Type.String(), {
    description: 'why the status is degraded (empty when ok): the last write failed, free space ' +
      'in DATA_DIR is below MIN_FREE_MB, or the database cannot be read or written'
  }),
  version: Type.String(),
  commit: Type.String({ description: 'the commit the server was built from, or "unknown"' })
})

const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Asked at start (it may run git once), not on a request.
  const commit = APP_COMMIT
  app.get(
    '/health',
    {
      config: { access: 'public' },
      schema: {
        tags: ['operations'],
        summary: 'Health of the server and its storage',
        description:
          '503 with `reasons` when the last write failed (until a write succeeds again), the ' +
          'free space in DATA_DIR is below MIN_FREE_MB, or the database cannot be read or ' +
          'written. Unauthenticated and cheap: one read, one file-system query, and a write ' +
          `probe at most every ${PROBE_INTERVAL_MS / 1000} s.`,
        response: { 200: Health, 503: Health }
      }
    },
    async (_request, reply) => {
      const { database, reasons } = app.storageHealth.check()
      const healthy = reasons.length === 0
      return reply.status(healthy ? 200 : 503).send({
        status: healthy ? 'ok' : 'degraded',
        database,
        reasons,
        version: APP_VERSION,
        commit
      })
    }
  )
}
export default healthRoutes
