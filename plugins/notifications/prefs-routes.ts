import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { eq } from '#src/db/orm.js'
import { NotificationPrefs, NotificationPrefsBody } from '#schemas/notifications.js'
import { users } from '#src/db/schema.js'
import { loadPrefs, savePrefs, type Prefs } from './prefs.js'

/** Each member's own choice of mail. */
const prefsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const answer = (userId: number, prefs: Prefs) => {
    const email = app.db.select({ email: users.email }).from(users).where(eq(users.id, userId))
      .get()?.email
    return { ...prefs, enabled: app.memberMail.site !== null, hasEmail: !!email }
  }

  app.get('/me/notifications', {
    config: { access: 'member' },
    schema: {
      tags: ['mail'],
      summary: 'Which mails you get',
      response: { 200: NotificationPrefs }
    }
  }, async (request) => answer(request.user.id, loadPrefs(app.db, request.user.id)))

  app.put('/me/notifications', {
    config: { access: 'member' },
    schema: {
      tags: ['mail'],
      summary: 'Choose which mails you get',
      body: NotificationPrefsBody,
      response: { 200: NotificationPrefs }
    }
  }, async (request) =>
    answer(request.user.id, savePrefs(app.db, request.user.id,
      { ...loadPrefs(app.db, request.user.id), ...request.body }, app.clock())))
}
export default prefsRoutes
