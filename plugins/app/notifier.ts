import fp from 'fastify-plugin'
import { noticeText, type Notice } from '#src/notices/notices.js'
import { chatFlavor } from '#src/notices/markup.js'
import { documentLanguage } from '#src/documents/labels.js'
import { WebhookNotifier } from '#src/notices/webhook-notifier.js'

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Queues a chat notice (NOTIFY_WEBHOOK_URL) caused by member `by`; a no-op without a webhook,
     * and then `notice` is not even called (it may read the database). Call it after the write
     * committed: it returns at once and never throws.
     */
    notify(by: number, notice: () => Notice): void
    /** The webhook sender, null when no webhook is configured (tests read its stats). */
    notifier: WebhookNotifier | null
  }
}

export interface NotifierPluginOptions {
  webhookUrl?: string
  publicUrl?: string
}

/**
 * Notices one member may cause per minute; the rest of that minute's are dropped (and logged
 * once). A band's real pace is a few a minute; a script creating surveys in a loop would
 * otherwise fill the shared queue and flood the channel.
 */
export const NOTICES_PER_MEMBER_PER_MINUTE = 10
const MINUTE_MS = 60_000

export default fp<NotifierPluginOptions>(
  async (app, options) => {
    const notifier = options.webhookUrl
      ? new WebhookNotifier({
        url: options.webhookUrl,
        log: { warn: (message) => app.log.warn(message) }
      })
      : null
    const target = {
      baseUrl: options.publicUrl,
      flavor: options.webhookUrl ? chatFlavor(options.webhookUrl) : ('mattermost' as const)
    }
    // Fixed one-minute windows per member (a band has tens of members: the map stays small).
    const windows = new Map<number, { start: number; count: number }>()
    const allowed = (by: number): boolean => {
      const now = Date.now()
      let w = windows.get(by)
      if (!w || now - w.start >= MINUTE_MS) windows.set(by, (w = { start: now, count: 0 }))
      w.count++
      if (w.count === NOTICES_PER_MEMBER_PER_MINUTE + 1) {
        app.log.warn({ userId: by }, 'chat notices: member over the per-minute limit, dropped')
      }
      return w.count <= NOTICES_PER_MEMBER_PER_MINUTE
    }
    app.decorate('notifier', notifier)
    app.decorate('notify', (by: number, notice: () => Notice) => {
      if (!notifier) return
      try {
        if (!allowed(by)) {
          notifier.stats.limited++
          return
        }
        // The band's language now: a change of locale applies to the next notice.
        const language = documentLanguage(app.appSettings.get().locale)
        notifier.send(noticeText(notice(), { ...target, language }))
      } catch (error) {
        // A notice is never worth a failed request.
        app.log.warn({ err: error }, 'chat notice not queued')
      }
    })
    app.addHook('onClose', async () => notifier?.close())
  },
  { name: 'notifier', fastify: '5.x', dependencies: ['app-settings'] }
)
