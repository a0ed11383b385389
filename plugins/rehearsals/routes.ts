import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorResponse, NoContent } from '#schemas/common.js'
import {
  Rehearsal,
  RehearsalCreate,
  RehearsalIdParams,
  RehearsalListQuery,
  RehearsalPatch,
  type RehearsalSongInput,
  type RehearsalType
} from '#schemas/rehearsals.js'
import type { Static } from '@sinclair/typebox'
import { badRequest, notFound } from '#src/errors.js'
import { minutesOf, todayIn } from '#shared/local-time.js'
import {
  createRehearsal,
  deleteRehearsal,
  findRehearsalRow,
  getRehearsal,
  listRehearsalsJson,
  UnknownSongsError,
  updateRehearsal
} from './repository.js'
import { availabilityRoutes } from '#plugins/availability/routes.js'
import { JSON_TYPE } from '#plugins/app/response-cache.js'

const NotFound = { ...ErrorResponse, description: 'Rehearsal not found' }
const DEFAULT_MINUTES = 120
const LAST_MINUTE = 23 * 60 + 59

const pad = (n: number) => String(n).padStart(2, '0')
const hhmm = (minutes: number) => `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`
/** A rehearsal ends on its own day: a later end is capped at 23:59. */
const endAfter = (start: string, minutes: number) =>
  hhmm(Math.min(minutesOf(start) + minutes, LAST_MINUTE))

function checkTimes (startTime: string, endTime: string): void {
  if (minutesOf(startTime) === LAST_MINUTE) {
    throw badRequest(
      'START_TOO_LATE',
      'a rehearsal starting at 23:59 leaves no time before midnight; it ends on its own day'
    )
  }
  if (minutesOf(endTime) <= minutesOf(startTime)) {
    throw badRequest(
      'END_BEFORE_START',
      `endTime ${endTime} must be after startTime ${startTime} (a rehearsal ends on its own day)`
    )
  }
}

function checkSongLines (lines: Static<typeof RehearsalSongInput>[] | undefined): void {
  const seen = new Set<number>()
  for (const line of lines ?? []) {
    if (seen.has(line.songId)) {
      throw badRequest('DUPLICATE_SONG', `song ${line.songId} appears twice`)
    }
    seen.add(line.songId)
  }
}

const unknownSongs = (error: unknown): never => {
  if (error instanceof UnknownSongsError) throw badRequest('UNKNOWN_SONG', error.message)
  throw error
}

const rehearsalRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/rehearsals',
    {
      config: { access: 'member' },
      schema: {
        tags: ['rehearsals'],
        summary: 'Rehearsals in date and start order',
        description:
          '`from`/`to` are inclusive dates; `upcoming=true` keeps those from today ' +
          'on (band timezone).',
        querystring: RehearsalListQuery,
        response: { 200: Type.Array(Rehearsal) }
      }
    },
    async (request, reply) => {
      const { from, to, upcoming } = request.query
      let since = from
      if (upcoming) {
        const today = todayIn(app.appSettings.get().timezone, app.clock())
        if (!since || since < today) since = today
      }
      // Thousands of rehearsals: each written out as soon as serialized (see jsonList).
      const serialize = reply.compileSerializationSchema(Rehearsal) as (r: RehearsalType) => string
      const json = listRehearsalsJson(app.db, app.sqlite, { from: since, to }, serialize)
      // Already the schema's bytes: sent as they are (the typed send expects the array).
      return reply.type(JSON_TYPE).send(json as never)
    }
  )

  app.post(
    '/rehearsals',
    {
      config: { access: 'editor' },
      schema: {
        tags: ['rehearsals'],
        summary: 'Plan a rehearsal',
        body: RehearsalCreate,
        response: { 201: Rehearsal }
      }
    },
    async (request, reply) => {
      const body = request.body
      const endTime = body.endTime ?? endAfter(body.startTime, DEFAULT_MINUTES)
      checkTimes(body.startTime, endTime)
      checkSongLines(body.songs)
      const now = app.clock().toISOString()
      let id = 0
      try {
        id = createRehearsal(
          app.db,
          {
            date: body.date,
            startTime: body.startTime,
            endTime,
            location: body.location ?? null,
            notes: body.notes ?? null,
            createdAt: now,
            updatedAt: now
          },
          body.songs ?? []
        )
      } catch (error) {
        unknownSongs(error)
      }
      return reply.status(201).send(getRehearsal(app.db, id)!)
    }
  )

  app.get(
    '/rehearsals/:id',
    {
      config: { access: 'member' },
      schema: {
        tags: ['rehearsals'],
        summary: 'One rehearsal with its songs',
        params: RehearsalIdParams,
        response: { 200: Rehearsal, 404: NotFound }
      }
    },
    async (request) => {
      const rehearsal = getRehearsal(app.db, request.params.id)
      if (!rehearsal) throw notFound('rehearsal', request.params.id)
      return rehearsal
    }
  )

  app.patch(
    '/rehearsals/:id',
    {
      config: { access: 'editor' },
      schema: {
        tags: ['rehearsals'],
        summary: 'Change a rehearsal; `songs`, when given, replaces the whole list',
        description:
          'Moving `startTime` without `endTime` keeps the duration (capped at 23:59); ' +
          '`endTime: null` resets it to start + 2 h.',
        params: RehearsalIdParams,
        body: RehearsalPatch,
        response: { 200: Rehearsal, 404: NotFound }
      }
    },
    async (request) => {
      const { id } = request.params
      const body = request.body
      const row = findRehearsalRow(app.db, id)
      if (!row) throw notFound('rehearsal', id)
      const startTime = body.startTime ?? row.startTime
      let endTime: string
      if (body.endTime === null) endTime = endAfter(startTime, DEFAULT_MINUTES)
      else if (body.endTime !== undefined) endTime = body.endTime
      else {
        endTime = endAfter(
          startTime,
          Math.max(1, minutesOf(row.endTime) - minutesOf(row.startTime))
        )
      }
      checkTimes(startTime, endTime)
      checkSongLines(body.songs)
      const { songs, ...header } = body
      try {
        const found = updateRehearsal(
          app.db,
          id,
          { ...header, startTime, endTime, updatedAt: app.clock().toISOString() },
          songs
        )
        if (!found) throw notFound('rehearsal', id)
      } catch (error) {
        unknownSongs(error)
      }
      return getRehearsal(app.db, id)!
    }
  )

  app.delete(
    '/rehearsals/:id',
    {
      config: { access: 'editor' },
      schema: {
        tags: ['rehearsals'],
        summary: 'Delete a rehearsal',
        params: RehearsalIdParams,
        response: { 204: NoContent, 404: NotFound }
      }
    },
    async (request, reply) => {
      if (!deleteRehearsal(app.db, request.params.id)) {
        throw notFound('rehearsal', request.params.id)
      }
      return reply.status(204).send(null)
    }
  )

  await app.register(
    availabilityRoutes({ path: '/rehearsals', resource: 'rehearsal', tag: 'rehearsals' })
  )
}
export default rehearsalRoutes
