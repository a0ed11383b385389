import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { hashToken } from '#src/auth/tokens.js'
import { documentLanguage, type DocumentLanguage } from '#src/documents/labels.js'
import { perMinute } from '#plugins/external/rate-limit.js'
import {
  findUnsubscribe,
  loadPrefs,
  savePrefs,
  type MailTopic
} from '#plugins/notifications/prefs.js'
import { escapeHtml, layout } from './page.js'

// One-click unsubscribe (RFC 8058): the mail's List-Unsubscribe address. A mail client POSTs
// `List-Unsubscribe=One-Click` to it; a person opening it sees a page whose button does the same.
// GET changes nothing.

const WORDS = {
  de: {
    title: 'Mails abbestellen',
    topics: {
      newEvents: 'neue Termine',
      changes: 'geänderte und abgesagte Termine',
      reminders: 'Erinnerungen',
      surveys: 'Umfragen',
      digest: 'den Wochenüberblick'
    },
    ask: (t: string) => `Keine Mails mehr über ${t}?`,
    button: 'Abbestellen',
    done: (t: string) =>
      `Erledigt: keine Mails mehr über ${t}. Im Profil stellst du das wieder um.`,
    invalid: 'Dieser Link gilt nicht.'
  },
  en: {
    title: 'Unsubscribe',
    topics: {
      newEvents: 'new events',
      changes: 'changed and cancelled events',
      reminders: 'reminders',
      surveys: 'surveys',
      digest: 'the weekly digest'
    },
    ask: (t: string) => `No more mails about ${t}?`,
    button: 'Unsubscribe',
    done: (t: string) => `Done: no more mails about ${t}. Your profile page turns them on again.`,
    invalid: 'This link is not valid.'
  }
} as const

const Html = (description: string) =>
  Type.Unsafe<string>({ description, content: { 'text/html': { schema: { type: 'string' } } } })
const responses = { 200: Html('the page'), 404: Html('unknown or altered link') }
const TokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 100 }) })

function page (language: DocumentLanguage, topic: MailTopic | null, action: string, done: boolean) {
  const words = WORDS[language]
  if (!topic) return layout(language, words.title, `<h1>${words.title}</h1><p>${words.invalid}</p>`)
  const what = words.topics[topic]
  return layout(language, words.title, `<h1>${words.title}</h1>` + (done
    ? `<p class="note" role="status">${escapeHtml(words.done(what))}</p>`
    : `<p>${escapeHtml(words.ask(what))}</p><form method="post" action="${escapeHtml(action)}">` +
      '<input type="hidden" name="List-Unsubscribe" value="One-Click">' +
      `<button type="submit">${words.button}</button></form>`))
}

const unsubscribeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const language = () => documentLanguage(app.appSettings.get().locale)
  const config = { access: 'public' as const, rateLimit: perMinute(30) }

  app.get('/unsubscribe/:token', {
    config,
    schema: {
      tags: ['answers'],
      summary: 'The unsubscribe page of a mail (changes nothing)',
      params: TokenParams,
      response: responses
    }
  }, async (request, reply) => {
    const link = findUnsubscribe(app.db, hashToken(request.params.token))
    const path = `/unsubscribe/${encodeURIComponent(request.params.token)}`
    return reply.status(link ? 200 : 404).type('text/html; charset=utf-8')
      .send(page(language(), link?.topic ?? null, path, false))
  })

  app.post('/unsubscribe/:token', {
    config,
    attachValidation: true,
    schema: {
      tags: ['answers'],
      summary: 'One-click unsubscribe (RFC 8058): turns this kind of mail off for the member',
      params: TokenParams,
      body: Type.Object({ 'List-Unsubscribe': Type.Optional(Type.String({ maxLength: 20 })) }),
      response: responses
    }
  }, async (request, reply) => {
    const link = request.validationError
      ? undefined
      : findUnsubscribe(app.db, hashToken(request.params.token))
    if (link) {
      const prefs = loadPrefs(app.db, link.userId)
      savePrefs(app.db, link.userId, { ...prefs, [link.topic]: false }, app.clock())
    }
    return reply.status(link ? 200 : 404).type('text/html; charset=utf-8')
      .send(page(language(), link?.topic ?? null, '', true))
  })
}
export default unsubscribeRoutes
