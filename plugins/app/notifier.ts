import fp from 'fastify-plugin'
import { noticeText, type Notice } from '#src/services/notices.js'
import { WebhookNotifier } from '#src/services/webhook-notifier.js'

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Queues a chat notice (NOTIFY_WEBHOOK_URL); a no-op without one, and then `notice` is not
     * even called (it may read the database). Call it after the write committed: it returns at
     * once and never throws.
     */
    notify(notice: () => Notice): void
    /** The webhook sender, null when no webhook is configured (tests read its stats). */
    notifier: WebhookNotifier | null
  }
}

export interface NotifierPluginOptions {
  webhookUrl?: string
  publicUrl?: string
}

export default fp<NotifierPluginOptions>(
  async (app, options) => {
    const notifier = options.webhookUrl
      ? new WebhookNotifier({
        url: options.webhookUrl,
        log: { warn: (message) => app.log.warn(message) }
      })
      : null
    app.decorate('notifier', notifier)
    app.decorate('notify', (notice: () => Notice) => {
      if (!notifier) return
      try {
        notifier.send(noticeText(notice(), options.publicUrl))
      } catch (error) {
        // A notice is never worth a failed request.
        app.log.warn({ err: error }, 'chat notice not queued')
      }
    })
    app.addHook('onClose', async () => notifier?.close())
  },
  { name: 'notifier', fastify: '5.x' }
)
