import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { CalendarStatus, CalendarTokenParams, CalendarUrl } from '#schemas/calendar.js'
import { ErrorResponse, NoContent, NotModified } from '#schemas/common.js'
import { ApiError, conflict, forbidden } from '#src/errors.js'
import { renderIcal } from '#src/documents/ical.js'
import { CALENDAR_LABELS, documentLanguage } from '#src/documents/labels.js'
import { addSecondsLocal, todayIn } from '#shared/local-time.js'
import { hashToken, randomToken } from '#src/auth/tokens.js'
import { deleteCalendarToken } from '#src/repositories/calendar-tokens.js'
import {
  findCalendarToken,
  findUserByCalendarToken,
  installationUid,
  loadCalendarEvents,
  saveCalendarToken
} from '#src/repositories/calendar.js'

/** How far back the feed reaches: a year of history is plenty for a calendar app. */
const HISTORY_DAYS = 365
const feedNotFound = () => new ApiError('CALENDAR_NOT_FOUND', 'calendar feed not found')

/**
 * The personal calendar subscription: POST/GET/DELETE /me/calendar and the feed GET
 * /cal/ical/{token}.
 */
const calendarRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // UIDs `gig-7@<installation id>.bandstand`: the same event has the same UID whether a member
  // subscribed through the LAN address or the domain, and two installations never collide.
  const uidDomain = `${installationUid(app.db, app.clock())}.bandstand`

  app.post(
    '/me/calendar',
    {
      config: { access: 'member' },
      schema: {
        tags: ['calendar'],
        summary:
          'Create (201) or replace (200) your personal calendar feed URL; the old ' +
          'URL stops working',
        description: 'The URL contains a 256-bit random token that is shown only in this answer.',
        response: { 200: CalendarUrl, 201: CalendarUrl, 409: ErrorResponse }
      }
    },
    async (request, reply) => {
      if (!app.appSettings.get().features.calendar) {
        throw conflict(
          'CALENDAR_DISABLED',
          'the calendar feed is switched off in the app configuration'
        )
      }
      const token = randomToken(32)
      const { replaced } = saveCalendarToken(
        app.db,
        request.user.id,
        hashToken(token),
        app.clock().toISOString()
      )
      return reply
        .status(replaced ? 200 : 201)
        .send({ url: `${request.protocol}://${request.host}/cal/ical/${token}` })
    }
  )

  app.get(
    '/me/calendar',
    {
      config: { access: 'member' },
      schema: {
        tags: ['calendar'],
        summary: 'Whether you have a calendar feed, and since when (the URL itself is not stored)',
        response: { 200: CalendarStatus }
      }
    },
    async (request) => {
      const row = findCalendarToken(app.db, request.user.id)
      return { enabled: !!row, createdAt: row?.createdAt ?? null }
    }
  )

  app.delete(
    '/me/calendar',
    {
      config: { access: 'member' },
      schema: {
        tags: ['calendar'],
        summary: 'Revoke your calendar feed URL (idempotent)',
        response: { 204: NoContent }
      }
    },
    async (request, reply) => {
      deleteCalendarToken(app.db, request.user.id)
      return reply.status(204).send(null)
    }
  )

  app.get(
    '/cal/ical/:token',
    {
      // No rate limit: the token carries at least 128 random bits, and the contract keeps every
      // route but the four session ones at 1000/min or more.
      config: { access: 'public', compress: false },
      schema: {
        tags: ['calendar'],
        summary:
          'Personal iCalendar feed (RFC 5545): gigs and rehearsals; the token in ' +
          'the path identifies the member',
        params: CalendarTokenParams,
        response: {
          200: Type.Unsafe<string>({
            description: 'iCalendar feed (UTF-8)',
            content: { 'text/calendar': { schema: { type: 'string' } } }
          }),
          304: NotModified,
          403: { ...ErrorResponse, description: 'PASSWORD_CHANGE_REQUIRED: until it is changed' },
          404: ErrorResponse
        }
      }
    },
    async (request, reply) => {
      const settings = app.appSettings.get()
      reply.header('referrer-policy', 'no-referrer')
      if (!settings.features.calendar) throw feedNotFound()
      const user = findUserByCalendarToken(app.db, hashToken(request.params.token))
      if (!user) throw feedNotFound()
      // As every other route: the gigs wait until the member has replaced their password.
      if (user.passwordChangeRequired) {
        throw forbidden(
          'change your password in the app first; the feed answers again afterwards',
          'PASSWORD_CHANGE_REQUIRED'
        )
      }
      const now = app.clock()
      const from = addSecondsLocal(
        `${todayIn(settings.timezone, now)}T00:00`,
        -HISTORY_DAYS * 86_400
      ).slice(0, 10)
      // No session here: the band's configured language, not a member's. The feed is the same
      // for every member, whatever the host it is fetched through: rendered once per database
      // revision, day and language.
      const language = documentLanguage(settings.locale)
      return app.sendCached(
        request,
        reply,
        `ical:${language}:${from}`,
        'text/calendar; charset=utf-8',
        () =>
          renderIcal({
            calendarName: CALENDAR_LABELS[language].name(settings.bandName),
            language,
            timezone: settings.timezone,
            uidDomain,
            now,
            ...loadCalendarEvents(app.db, from)
          })
      )
    }
  )
}

export default calendarRoutes
