import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import { ErrorResponse, NoContent, NotModified } from '#schemas/common.js'
import {
  MAX_CHART_BYTES,
  Song,
  SongCreate,
  SongDetail,
  SongDeleteResult,
  SongIdParams,
  SongListQuery,
  SongPatch,
  SongVotes,
  VoteBody,
  type SongCreateType,
  type SongPatchType
} from '#schemas/songs.js'
import { ApiError, badRequest, conflict, forbidden, notFound } from '#src/errors.js'
import { parseChordPro, RECALL_LIMITS } from '#shared/chords/chordpro.js'
import {
  deleteOrRetireSong,
  deleteVote,
  findSong,
  insertSong,
  listSongs,
  songVotesOf,
  toSong,
  toSongListItem,
  updateSong,
  upsertVote
} from './repository.js'
import { canonicalKey, keyString, parseKey } from '#shared/keys.js'
import { ACCEPTED_SONG_STATUSES } from '#shared/enums.js'
import { findUserById } from '#src/repositories/users.js'
import { contentDisposition, slug } from '#src/http/content-disposition.js'
import songHistoryRoutes from './history-routes.js'

const NotFound = { ...ErrorResponse, description: 'Song not found' }

/** Rules a schema cannot express: values from the band's configuration and real URLs. */
function checkSongInput (app: FastifyInstance, body: SongCreateType | SongPatchType): void {
  const settings = app.appSettings.get()
  if (body.key != null && !canonicalKey(body.key)) {
    // Canonical only: "B" means B natural to some and B flat to others; the API never guesses.
    const read = parseKey(body.key, settings.chordNotation ?? 'english')
    const hint = read ? ` (did you mean "${keyString(read)}"?)` : ''
    throw badRequest(
      'INVALID_KEY',
      `key "${body.key.slice(0, 60)}" is not a key: a tonic (C … B with # or b), then "m" for ` +
        `minor, e.g. "Bb" or "Gm"${hint}`
    )
  }
  if (body.genre != null && !settings.genres.includes(body.genre)) {
    throw badRequest('INVALID_GENRE', `genre "${body.genre}" is not one of the configured genres`)
  }
  for (const link of body.links ?? []) {
    let url: URL | undefined
    try {
      url = new URL(link)
    } catch {
      url = undefined
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) {
      throw badRequest('INVALID_LINK', `link "${link.slice(0, 100)}" is not an http(s) URL`)
    }
  }
  if (body.chart != null) checkChart(body.chart)
  for (const field of ['composers', 'lyricists', 'arrangers'] as const) {
    if (body[field]?.some((name) => name.trim() === '')) {
      throw badRequest('INVALID_PERSON', `${field} must not contain blank names`)
    }
  }
}

/**
 * A chart is stored byte for byte as sent: at most 64 KiB of UTF-8, and no U+FFFD, the mark a
 * decoder leaves where the upload was not UTF-8 (a Latin-1 .cho file), which would be stored
 * garbled. Broken UTF-16 is refused for every text before (INVALID_TEXT).
 */
function checkChart (chart: string): void {
  const bytes = Buffer.byteLength(chart, 'utf8')
  if (bytes > MAX_CHART_BYTES) {
    throw badRequest(
      'CHART_TOO_LARGE',
      `the chart has ${bytes} bytes of UTF-8; at most ${MAX_CHART_BYTES} (64 KiB) are allowed`
    )
  }
  if (chart.includes('\uFFFD')) {
    throw badRequest(
      'CHART_ENCODING',
      'the chart is not valid UTF-8 text (it holds U+FFFD replacement characters): save the ' +
        'file as UTF-8 and send it again'
    )
  }
  // Every reader stops expanding there too (a chart stored before this check included).
  if (parseChordPro(chart).sections.some((section) => section.clipped)) {
    throw badRequest(
      'CHART_EXPANDS_TOO_FAR',
      `the chart's {chorus} recalls would repeat more than ${RECALL_LIMITS.lines} lines or ` +
        `${RECALL_LIMITS.textFactor} times its own text: recall the chorus fewer times`
    )
  }
}

const songRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const displayName = (userId: number) => findUserById(app.db, userId)?.displayName ?? '?'

  app.get(
    '/songs',
    {
      config: { access: 'member', compress: false },
      schema: {
        tags: ['songs'],
        summary: 'The repertoire in title order (retired songs only when asked for)',
        description:
          'Filters: `status` (retired songs appear only with `status=retired` or ' +
          '`includeRetired=true`), `genre`, `q` (case-insensitive substring of title ' +
          'or artist; % and _ are literal).',
        querystring: SongListQuery,
        response: { 200: Type.Array(Song), 304: NotModified }
      }
    },
    async (request, reply) =>
      app.sendCachedJson(request, reply, `songs?${JSON.stringify(request.query)}`, () =>
        listSongs(app.db, request.query, app.appSettings.get().locale).map(toSongListItem)
      )
  )

  app.get(
    '/songs/:id',
    {
      config: { access: 'member' },
      schema: {
        tags: ['songs'],
        summary: 'One song, with its chart',
        params: SongIdParams,
        response: { 200: SongDetail, 404: NotFound }
      }
    },
    async (request) => {
      const row = findSong(app.db, request.params.id)
      if (!row) throw notFound('song', request.params.id)
      return toSong(row)
    }
  )

  app.get(
    '/songs/:id/chart.cho',
    {
      config: { access: 'member' },
      schema: {
        tags: ['songs'],
        summary: "Download a song's chart as a ChordPro file (.cho), exactly as stored",
        params: SongIdParams,
        produces: ['text/plain'],
        response: {
          200: Type.String({ description: 'the ChordPro text, UTF-8' }),
          404: { ...ErrorResponse, description: 'Song not found, or it has no chart' }
        }
      }
    },
    async (request, reply) => {
      const row = findSong(app.db, request.params.id)
      if (!row) throw notFound('song', request.params.id)
      if (row.chart === null) {
        throw new ApiError('SONG_NOT_FOUND', `song ${request.params.id} has no chart`)
      }
      return reply
        .type('text/plain; charset=utf-8')
        .header('content-disposition', contentDisposition('attachment', `${slug(row.title)}.cho`))
        .send(row.chart)
    }
  )

  app.post(
    '/songs',
    {
      config: { access: 'member' },
      schema: {
        tags: ['songs'],
        summary: 'Add a song (editors) or propose one (members)',
        description:
          'Members may only propose: the status must be `proposed` (the default for ' +
          'members); editors may use any status (default `accepted`).',
        body: SongCreate,
        response: { 201: SongDetail }
      }
    },
    async (request, reply) => {
      const body = request.body
      const isEditor = app.hasRole(request.user, 'editor')
      const status = body.status ?? (isEditor ? 'accepted' : 'proposed')
      if (!isEditor && status !== 'proposed') {
        throw forbidden('members may only propose songs (status proposed)')
      }
      checkSongInput(app, body)
      const now = app.clock().toISOString()
      const row = insertSong(app.db, {
        ...body,
        status,
        proposedBy: status === 'proposed' ? request.user.id : null,
        createdAt: now,
        updatedAt: now
      })
      if (row.status === 'proposed') {
        app.notify(request.user.id, () => ({
          type: 'song.proposed',
          song: row,
          by: displayName(request.user.id)
        }))
      }
      return reply.status(201).send(toSong(row))
    }
  )

  app.patch(
    '/songs/:id',
    {
      config: { access: 'editor' },
      schema: {
        tags: ['songs'],
        summary: 'Change a song (accept, retire, edit); omitted fields stay, null clears',
        params: SongIdParams,
        body: SongPatch,
        response: { 200: SongDetail, 404: NotFound }
      }
    },
    async (request) => {
      checkSongInput(app, request.body)
      const before = findSong(app.db, request.params.id)
      const row = updateSong(app.db, request.params.id, {
        ...request.body,
        // A key chosen (or cleared) replaces an old key that could not be read.
        ...(request.body.key !== undefined ? { keyText: null } : {}),
        updatedAt: app.clock().toISOString()
      })
      if (!row) throw notFound('song', request.params.id)
      if (before?.status === 'proposed' && ACCEPTED_SONG_STATUSES.includes(row.status)) {
        app.notify(request.user.id, () => ({ type: 'song.accepted', song: row }))
      }
      return toSong(row)
    }
  )

  app.delete(
    '/songs/:id',
    {
      config: { access: 'editor' },
      schema: {
        tags: ['songs'],
        summary: 'Delete a song; a song used by a setlist is retired instead',
        params: SongIdParams,
        response: { 200: SongDeleteResult, 404: NotFound }
      }
    },
    async (request) => {
      const { id } = request.params
      // A deleted song's files go with it (their bytes when no other song or gig has them).
      const outcome = app.files.deleteOwner({ songId: id }, () =>
        deleteOrRetireSong(app.db, id, app.clock().toISOString()))
      if (!outcome) throw notFound('song', request.params.id)
      return outcome.deleted
        ? { deleted: true, retired: false }
        : { deleted: false, retired: true, song: toSong(outcome.song) }
    }
  )

  const proposedSong = (id: number) => {
    const row = findSong(app.db, id)
    if (!row) throw notFound('song', id)
    if (row.status !== 'proposed') {
      throw conflict(
        'SONG_NOT_PROPOSED',
        `song ${id} is ${row.status}; only proposed songs take votes`
      )
    }
    return row
  }

  app.put(
    '/songs/:id/vote',
    {
      config: { access: 'member' },
      schema: {
        tags: ['songs'],
        summary: 'Cast or change my vote on a proposed song',
        description: "Always the calling member's own vote; answers with all votes of the song.",
        params: SongIdParams,
        body: VoteBody,
        response: {
          200: SongVotes,
          404: NotFound,
          409: { ...ErrorResponse, description: 'The song is not proposed (SONG_NOT_PROPOSED)' }
        }
      }
    },
    async (request) => {
      proposedSong(request.params.id)
      upsertVote(
        app.db,
        request.params.id,
        request.user.id,
        request.body.vote,
        app.clock().toISOString()
      )
      return songVotesOf(app.db, request.params.id)
    }
  )

  app.delete(
    '/songs/:id/vote',
    {
      config: { access: 'member' },
      schema: {
        tags: ['songs'],
        summary: 'Withdraw my vote on a proposed song (idempotent)',
        params: SongIdParams,
        response: {
          204: NoContent,
          404: NotFound,
          409: { ...ErrorResponse, description: 'The song is not proposed (SONG_NOT_PROPOSED)' }
        }
      }
    },
    async (request, reply) => {
      proposedSong(request.params.id)
      deleteVote(app.db, request.params.id, request.user.id)
      return reply.status(204).send(null)
    }
  )

  app.get(
    '/songs/:id/votes',
    {
      config: { access: 'member' },
      schema: {
        tags: ['songs'],
        summary: 'Vote counts and who voted what',
        params: SongIdParams,
        response: { 200: SongVotes, 404: NotFound }
      }
    },
    async (request) => {
      if (!findSong(app.db, request.params.id)) throw notFound('song', request.params.id)
      return songVotesOf(app.db, request.params.id)
    }
  )
  await app.register(songHistoryRoutes)
}
export default songRoutes
