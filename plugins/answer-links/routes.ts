import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply } from 'fastify'
import { Type } from '@sinclair/typebox'
import { hashToken } from '#src/auth/tokens.js'
import { documentLanguage, type DocumentLanguage } from '#src/documents/labels.js'
import { formatDateIn, joinPresent } from '#src/documents/format.js'
import { perMinute } from '#plugins/external/rate-limit.js'
import { availabilitySources, saveAvailability } from '#src/repositories/availability.js'
import { ANSWER_VALUES, type AvailabilityStatus } from '#shared/enums.js'
import { zonedToUtc } from '#shared/local-time.js'
import { MEMBER_MAIL_LABELS } from '#plugins/notifications/labels.js'
import unsubscribeRoutes from './unsubscribe.js'
import {
  currentAnswer, findAnswerLink, findLinkedEvent, type LinkedEvent
} from '#src/repositories/answer-links.js'
import { ANSWER_COMMENT_MAX, answerPage, problemPage, type AnswerPageProblem } from './page.js'

const Html = (description: string) =>
  Type.Unsafe<string>({ description, content: { 'text/html': { schema: { type: 'string' } } } })
const TokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 100 }) })
const AnswerQuery = Type.Object({
  a: Type.Optional(Type.String({ maxLength: 10, description: 'the answer to preselect' }))
})
const AnswerForm = Type.Object({
  answer: Type.String({ maxLength: 10 }),
  comment: Type.Optional(Type.String({ maxLength: 1000 }))
})
const responses = {
  200: Html('the answer page'),
  400: Html('the form was not filled in right (nothing changed)'),
  404: Html('unknown or altered link (nothing changed)'),
  410: Html('answers closed, or the member is no longer active (nothing changed)')
}
/** Requests per minute per client on either route: a person clicks a few times. */
const ANSWERS_PER_MINUTE = 30

const isAnswer = (value: unknown): value is AvailabilityStatus =>
  (ANSWER_VALUES as readonly unknown[]).includes(value)

/** The moment answers close: the event's start (a gig without a time: the end of its day). */
export const answersCloseAt = (event: LinkedEvent, timezone: string) =>
  zonedToUtc(`${event.date}T${event.startTime ?? '23:59'}`, timezone)

/**
 * One-click answers from the mails: `GET /answer/{token}` only shows the page (mail scanners
 * and previews follow links); its form's `POST` records the answer as the member.
 */
const answerLinkRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body))))
  )
  app.addHook('onSend', async (_request, reply) => {
    reply.header('referrer-policy', 'no-referrer')
    reply.header('cache-control', 'no-store')
    reply.header('x-robots-tag', 'noindex')
  })

  await app.register(unsubscribeRoutes)

  const html = (reply: FastifyReply, status: number, body: string) =>
    reply.status(status).type('text/html; charset=utf-8').send(body)

  const refused = (status: number, problem: AnswerPageProblem) =>
    ({ ok: false as const, status, problem })
  /** The link's member and event, or the problem page's answer. */
  const resolve = (token: string, language: DocumentLanguage) => {
    const link = findAnswerLink(app.db, hashToken(token))
    const event = link && findLinkedEvent(app.db, link.kind, link.eventId)
    if (!link || !event) return refused(404, 'invalid')
    if (link.userStatus !== 'active') return refused(410, 'invalid')
    const closed = !event.answering ||
      app.clock() >= answersCloseAt(event, app.appSettings.get().timezone) ||
      app.memberMail.answersClosed(link.kind, link.eventId)
    if (closed) return refused(410, 'closed')
    const words = MEMBER_MAIL_LABELS[language]
    const lines = [
      event.name ?? words.rehearsal,
      joinPresent([formatDateIn(event.date, language),
        joinPresent([event.startTime, event.endTime], '–')], ' · '),
      event.place
    ].filter((l): l is string => !!l)
    return { ok: true as const, link, lines }
  }

  const render = (
    token: string,
    found: Extract<ReturnType<typeof resolve>, { ok: true }>,
    page: { chosen: AvailabilityStatus | null; comment: string; saved?: boolean; problem?: 'bad' }
  ) => {
    const settings = app.appSettings.get()
    const { link } = found
    const path = link.kind === 'gig' ? 'gigs' : 'rehearsals'
    return answerPage({
      language: documentLanguage(settings.locale),
      bandName: settings.bandName,
      displayName: link.displayName,
      event: found.lines,
      eventUrl: `/app/${path}/${link.eventId}`,
      action: `/answer/${encodeURIComponent(token)}`,
      ...page
    })
  }

  app.get(
    '/answer/:token',
    {
      config: { access: 'public', rateLimit: perMinute(ANSWERS_PER_MINUTE) },
      schema: {
        tags: ['answers'],
        summary: 'The one-click answer page of a mail (changes nothing)',
        params: TokenParams,
        querystring: AnswerQuery,
        response: responses
      }
    },
    async (request, reply) => {
      const language = documentLanguage(app.appSettings.get().locale)
      const found = resolve(request.params.token, language)
      if (!found.ok) return html(reply, found.status, problemPage(language, found.problem))
      const current = currentAnswer(app.db, found.link.kind, found.link.eventId, found.link.userId)
      const chosen = isAnswer(request.query.a) ? request.query.a : current?.status ?? null
      return html(reply, 200, render(request.params.token, found, {
        chosen,
        comment: current?.note ?? ''
      }))
    }
  )

  app.post(
    '/answer/:token',
    {
      config: { access: 'public', rateLimit: perMinute(ANSWERS_PER_MINUTE) },
      attachValidation: true,
      schema: {
        tags: ['answers'],
        summary: 'Record the answer of the page\'s form as the link\'s member',
        description: 'A form post (`application/x-www-form-urlencoded`): `answer` yes, maybe ' +
          `or no; \`comment\` up to ${ANSWER_COMMENT_MAX} characters.`,
        params: TokenParams,
        body: AnswerForm,
        response: responses
      }
    },
    async (request, reply) => {
      const language = documentLanguage(app.appSettings.get().locale)
      const invalid = request.validationError as { validationContext?: string } | undefined
      if (invalid && invalid.validationContext !== 'body') {
        return html(reply, 404, problemPage(language, 'invalid'))
      }
      const found = resolve(request.params.token, language)
      if (!found.ok) return html(reply, found.status, problemPage(language, found.problem))
      const answer = request.body?.answer
      const comment = (request.body?.comment ?? '').trim()
      if (request.validationError || !isAnswer(answer) || comment.length > ANSWER_COMMENT_MAX) {
        return html(reply, 400, render(request.params.token, found, {
          chosen: isAnswer(answer) ? answer : null,
          comment: comment.slice(0, ANSWER_COMMENT_MAX),
          problem: 'bad'
        }))
      }
      const { link } = found
      saveAvailability(app.db, availabilitySources[link.kind], link.eventId, link.userId,
        { status: answer, note: comment || null }, app.clock())
      return html(reply, 200, render(request.params.token, found, {
        chosen: answer, comment, saved: true
      }))
    }
  )
}
export default answerLinkRoutes
