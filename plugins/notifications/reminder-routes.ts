import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorResponse, IdParams } from '#schemas/common.js'
import {
  AnswerDeadline,
  AnswerDeadlinePut,
  RemindersSent,
  type AnswerDeadlineType
} from '#schemas/notifications.js'
import { ReminderPost } from '#schemas/lineup.js'
import { badRequest, conflict, notFound } from '#src/errors.js'
import { todayIn } from '#shared/local-time.js'
import { findLinkedEvent } from '#src/repositories/answer-links.js'
import { eventExists, availabilitySources } from '#src/repositories/availability.js'
import { surveys } from '#src/db/schema.js'
import { eq } from '#src/db/orm.js'
import { remindEvents, remindSurvey } from './reminders.js'
import { playersOfNeed } from './occasional.js'
import {
  answersClosed,
  loadDeadlines,
  planReminders,
  saveDeadline,
  type AnswerKind
} from './deadlines.js'

const KINDS = [['gig', 'gigs'], ['rehearsal', 'rehearsals']] as const

/** "Remind now" for editors, and the answer deadline of each gig and rehearsal. */
const reminderRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const context = () => {
    const site = app.memberMail.site
    if (!site) throw conflict('MAIL_NOT_CONFIGURED', 'mail is off: the server has no SMTP_URL')
    return { now: app.clock(), settings: app.appSettings.get(), site, push: app.memberPush }
  }
  const queued = (count: number) => {
    if (count > 0) void app.memberMail.worker?.kick()
    return { mailed: count }
  }
  const deadlineOf = (kind: AnswerKind, id: number): AnswerDeadlineType => {
    const event = findLinkedEvent(app.db, kind, id)
    if (!event) throw notFound(kind, id)
    const settings = app.appSettings.get()
    const deadline = loadDeadlines(app.db, kind, [{ id, date: event.date }], settings).get(id)!
    return { ...deadline, closed: answersClosed(deadline, app.clock(), settings.timezone) }
  }

  for (const [kind, path] of KINDS) {
    const NotFound = { ...ErrorResponse, description: `Unknown ${kind}` }
    app.post(`/${path}/:id/reminders`, {
      config: { access: 'editor' },
      schema: {
        tags: ['mail'],
        summary: `Remind the members who have not answered this ${kind} (one mail a day at most)`,
        description: 'With `instrument` (gigs): only the players of that need of the lineup.',
        params: IdParams,
        body: ReminderPost,
        response: { 200: RemindersSent, 400: ErrorResponse, 404: NotFound, 409: ErrorResponse }
      },
      // No body at all is the whole event.
      preValidation: async (request) => { request.body ??= {} }
    }, async (request) => {
      const { id } = request.params
      if (!eventExists(app.db, availabilitySources[kind], id)) throw notFound(kind, id)
      const instrument = request.body.instrument
      const only = instrument === undefined
        ? undefined
        : playersOfNeed(app.db, kind, id, instrument)
      if (only === null) {
        throw badRequest('LINEUP_INSTRUMENT_UNKNOWN', `the ${kind}'s lineup needs no ${instrument}`)
      }
      const ctx = context()
      return queued(app.db.transaction((tx) => remindEvents(tx, kind, [id], ctx, only)))
    })

    app.get(`/${path}/:id/answer-deadline`, {
      config: { access: 'member' },
      schema: {
        tags: ['mail'],
        summary: `Until when members answer this ${kind}, and whether answers are closed`,
        params: IdParams,
        response: { 200: AnswerDeadline, 404: NotFound }
      }
    }, async (request) => deadlineOf(kind, request.params.id))

    app.put(`/${path}/:id/answer-deadline`, {
      config: { access: 'editor' },
      schema: {
        tags: ['mail'],
        summary: `Set this ${kind}'s answer deadline, or lock its answers`,
        description: 'The reminders are planned again for the new deadline.',
        params: IdParams,
        body: AnswerDeadlinePut,
        response: { 200: AnswerDeadline, 404: NotFound }
      }
    }, async (request) => {
      const { id } = request.params
      const event = findLinkedEvent(app.db, kind, id)
      if (!event) throw notFound(kind, id)
      const settings = app.appSettings.get()
      const now = app.clock()
      app.db.transaction((tx) => {
        const current = loadDeadlines(tx, kind, [{ id, date: event.date }], settings).get(id)!
        saveDeadline(tx, kind, id, {
          answerBy: request.body.answerBy,
          locked: request.body.locked ?? current.locked
        })
        if (event.date >= todayIn(settings.timezone, now)) {
          planReminders(tx, kind, loadDeadlines(tx, kind, [{ id, date: event.date }], settings),
            settings, now)
        }
      })
      return deadlineOf(kind, id)
    })
  }

  app.post('/surveys/:id/reminders', {
    config: { access: 'editor' },
    schema: {
      tags: ['mail'],
      summary: 'Remind the members who have not answered this open survey',
      params: IdParams,
      response: { 200: RemindersSent, 404: ErrorResponse, 409: ErrorResponse }
    }
  }, async (request) => {
    const survey = app.db.select({ status: surveys.status }).from(surveys)
      .where(eq(surveys.id, request.params.id)).get()
    if (!survey) throw notFound('survey', request.params.id)
    if (survey.status !== 'open') throw conflict('SURVEY_CLOSED', 'the survey is closed')
    const ctx = context()
    return queued(app.db.transaction((tx) => remindSurvey(tx, request.params.id, ctx)))
  })
}
export default reminderRoutes
