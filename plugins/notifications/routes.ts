import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorResponse, IdParams } from '#schemas/common.js'
import {
  MailListQuery,
  MailOutboxList,
  OutboxMail,
  type OutboxMailType
} from '#schemas/notifications.js'
import { ApiError, conflict } from '#src/errors.js'
import type { MailOutboxRow } from '#src/db/schema.js'
import { PushOutboxList } from '#schemas/push.js'
import { findMail, listMails, requeueFailed } from './outbox.js'
import { listPushes } from './push-outbox.js'

const toMail = (row: MailOutboxRow): OutboxMailType => ({
  id: row.id,
  userId: row.userId,
  to: row.toAddress,
  kind: row.kind,
  subject: row.subject,
  status: row.status,
  attempts: row.attempts,
  nextAttemptAt: row.nextAttemptAt,
  lastError: row.lastError,
  createdAt: row.createdAt,
  sentAt: row.sentAt
})

/** The admins' view of the outboxes: what failed and why, and "send again" for a mail. */
const outboxRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/mail/outbox',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['mail'],
        summary: 'Mails to members, newest first',
        description: '`status=failed`: the mails given up, each with the reason.',
        querystring: MailListQuery,
        response: { 200: MailOutboxList }
      }
    },
    async (request) => ({
      enabled: app.memberMail.worker !== null,
      mails: listMails(app.db, request.query.status, request.query.limit ?? 50).map(toMail)
    })
  )

  app.get(
    '/push/outbox',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['mail'],
        summary: 'Push notifications to members, newest first',
        description: '`status=failed`: the pushes given up, each with the reason (a phone the ' +
          'push service no longer knows is removed with its pushes, not listed).',
        querystring: MailListQuery,
        response: { 200: PushOutboxList }
      }
    },
    async (request) => ({
      pushes: listPushes(app.db, request.query.status, request.query.limit ?? 50)
        .map(({ push, userId }) => ({
          id: push.id,
          userId,
          kind: push.kind,
          title: push.payload.title,
          status: push.status,
          attempts: push.attempts,
          nextAttemptAt: push.nextAttemptAt,
          lastError: push.lastError,
          createdAt: push.createdAt,
          sentAt: push.sentAt
        }))
    })
  )

  app.post(
    '/mail/outbox/:id/retry',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['mail'],
        summary: 'Send a failed mail again (queued at once, with a fresh count of attempts)',
        params: IdParams,
        response: { 200: OutboxMail, 404: ErrorResponse, 409: ErrorResponse }
      }
    },
    async (request) => {
      const row = requeueFailed(app.db, request.params.id, app.clock())
      if (!row) {
        if (!findMail(app.db, request.params.id)) {
          throw new ApiError('MAIL_NOT_FOUND', `mail ${request.params.id} not found`)
        }
        throw conflict('MAIL_NOT_FAILED', 'only a failed mail can be sent again')
      }
      void app.memberMail.worker?.kick()
      return toMail(row)
    }
  )
}
export default outboxRoutes
