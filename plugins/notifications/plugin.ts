import fp from 'fastify-plugin'
import type { Config } from '#src/config.js'
import { todayIn } from '#shared/local-time.js'
import { installationUid } from '#src/repositories/calendar.js'
import { createPooledTransport } from './transport.js'
import { OutboxWorker } from './worker.js'
import { OUTBOX_LIMITS } from './outbox-loop.js'
import { enqueueMails } from './outbox.js'
import { forgetDeleted, takeChanges } from './watch.js'
import { answersClosed, loadDeadlines, planReminders, type AnswerKind } from './deadlines.js'
import reminderRoutes from './reminder-routes.js'
import prefsRoutes from './prefs-routes.js'
import { runDueReminders } from './reminders.js'
import { runDigests } from './digest.js'
import { buildMails, type MailSite } from './mails.js'
import { recipientsFor } from './occasional.js'
import outboxRoutes from './routes.js'
import { findLinkedEvent, pruneAnswerTokens } from '#src/repositories/answer-links.js'
import { createMemberPush } from './push.js'
import pushRoutes from './push-routes.js'

declare module 'fastify' {
  interface FastifyInstance {
    memberMail: {
      /** Null without SMTP_URL: nothing is queued then, and the watch only keeps up. */
      worker: OutboxWorker | null
      site: MailSite | null
      /** Compares the events with what was reported and queues the mails; answers how many. */
      scan(): number
      /** Forgets deleted events and drops answer links that can do nothing any more. */
      tidy(): void
      /** Whether members can no longer answer the event (deadline over, or locked). */
      answersClosed(kind: AnswerKind, id: number): boolean
    }
  }
}

export interface NotificationsOptions {
  config: Pick<Config, 'smtpUrl' | 'smtpFrom' | 'publicUrl' | 'dataDir' | 'pushLocalEndpoints'>
}

/**
 * Writes under these paths may change an event (its fields, a schedule's derived times): looked
 * at right after, so the timer only finds other writers (the CLI, an import).
 */
const EVENT_ROUTES = /^\/(gigs|rehearsals|surveys)(\/|$)/

/**
 * Mail to members: the watch over gigs, rehearsals and surveys, the outbox and its worker, and
 * the admins' list of failed mails.
 */
export default fp<NotificationsOptions>(
  async (app, { config: options }) => {
    const uidDomain = `${installationUid(app.db, app.clock())}.bandstand`
    const site = options.smtpUrl && options.publicUrl
      ? { publicUrl: options.publicUrl, uidDomain }
      : null
    const worker = site
      ? new OutboxWorker(
        app.db,
        app.clock,
        createPooledTransport(options.smtpUrl!, options.smtpFrom),
        uidDomain,
        app.log,
        () => app.sqlite.open
      )
      : null
    const push = createMemberPush(app, options)

    const scan = (): number => {
      const now = app.clock()
      const settings = app.appSettings.get()
      const queued = app.db.transaction((tx) => {
        const { changes, touched } = takeChanges(tx, now, todayIn(settings.timezone, now))
        // Pushes need no mail server; reminders come with the mail's (runDueReminders).
        push.queue(tx, changes, { settings })
        if (!site) return 0
        const deadlines = {
          gig: loadDeadlines(tx, 'gig', touched.gig, settings),
          rehearsal: loadDeadlines(tx, 'rehearsal', touched.rehearsal, settings)
        }
        planReminders(tx, 'gig', deadlines.gig, settings, now)
        planReminders(tx, 'rehearsal', deadlines.rehearsal, settings, now)
        let queued = runDueReminders(tx, { now, settings, site, push })
        queued += runDigests(tx, { now, settings, site })
        if (changes.length === 0) return queued
        const mails = buildMails(tx, changes, recipientsFor(tx, changes), {
          now,
          settings,
          site,
          answerBy: (kind, id) => deadlines[kind].get(id)?.answerBy
        })
        queued += enqueueMails(tx, mails, now)
        return queued
      })
      if (queued > 0) void worker!.kick()
      return queued
    }
    const safeScan = () => {
      if (!app.sqlite.open) return
      try {
        scan()
      } catch (err) {
        // A mail is never worth a failed request; the next look finds the change again.
        app.log.error({ err }, 'member mail: looking for changes failed')
      }
    }
    // After the answer went out (the request never waits for it), before the next request.
    app.addHook('onResponse', (request, reply, done) => {
      const url = request.routeOptions.url ?? ''
      const wrote = request.method !== 'GET' && reply.statusCode < 400
      if (wrote && EVENT_ROUTES.test(url)) safeScan()
      done()
    })
    const tidy = () => {
      forgetDeleted(app.db)
      pruneAnswerTokens(app.db, todayIn(app.appSettings.get().timezone, app.clock()))
      push.tidy()
    }
    // Other writers (the CLI, a restore) are found by the timer.
    const timer = setInterval(() => {
      safeScan()
      if (app.sqlite.open) tidy()
    }, OUTBOX_LIMITS.pollMs).unref()
    app.addHook('onReady', async () => {
      worker?.start()
      push.worker.start()
      safeScan()
    })
    app.addHook('onClose', async () => {
      clearInterval(timer)
      worker?.close()
      push.worker.close()
    })
    const closed = (kind: AnswerKind, id: number) => {
      const event = findLinkedEvent(app.db, kind, id)
      if (!event) return false
      const settings = app.appSettings.get()
      const deadline = loadDeadlines(app.db, kind, [{ id, date: event.date }], settings).get(id)!
      return answersClosed(deadline, app.clock(), settings.timezone)
    }
    app.decorate('memberMail', { worker, site, scan, tidy, answersClosed: closed })
    app.decorate('memberPush', push)
    await app.register(outboxRoutes)
    await app.register(reminderRoutes)
    await app.register(prefsRoutes)
    await app.register(pushRoutes)
  },
  { name: 'notifications', fastify: '5.x', dependencies: ['db', 'clock', 'app-settings'] }
)
