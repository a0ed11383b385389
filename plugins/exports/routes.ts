import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorResponse } from '#schemas/common.js'
import {
  BandExportDocument, BandExportQuery, SeasonParams, SeasonSetlists
} from '#schemas/exports.js'
import { conflict } from '#src/errors.js'
import { buildBandExport, ExportTooLarge } from '#src/repositories/band-export.js'
import { bandArchiveStream } from '#src/repositories/band-archive-write.js'
import { contentDisposition } from '#src/http/content-disposition.js'
import { todayIn } from '#shared/local-time.js'
import { loadSeasonSetlists } from './repository.js'

/** A season's setlists (every member) and the full band export (admins). */
const exportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/exports/seasons/:year',
    {
      config: { access: 'member' },
      schema: {
        tags: ['exports'],
        summary: 'All setlists of a season (calendar year) as one JSON document',
        description:
          'Each gig of the year except declined ones, with its setlist as GET ' +
          '/gigs/{id}/setlist has it (live record included). Sent as a download.',
        params: SeasonParams,
        response: { 200: SeasonSetlists }
      }
    },
    async (request, reply) => {
      const { year } = request.params
      const settings = app.appSettings.get()
      reply.header(
        'content-disposition',
        contentDisposition('attachment', `Setlists-${year}.json`)
      )
      return {
        format: 'bandstand-season-setlists' as const,
        formatVersion: 1 as const,
        season: year,
        bandName: settings.bandName,
        exportedAt: app.clock().toISOString(),
        gigs: loadSeasonSetlists(app.db, year, settings.timing)
      }
    }
  )

  // One handler at two paths: /admin/export beside the other admin routes (the web app's download
  // link), and /exports/band, where it was first published, kept for scripts that already use it:
  // there the JSON document stays the default.
  for (const [url, deprecated] of [
    ['/admin/export', false],
    ['/exports/band', true]
  ] as const) {
    app.get(
      url,
      {
        config: { access: 'admin' },
        schema: {
          tags: ['exports'],
          summary: 'Full band export: every table except secrets and sessions, with the files',
          description:
            (deprecated
              ? 'The same as GET /admin/export (kept for existing scripts), but `format` ' +
                'defaults to `json`. '
              : '') +
            'For moving or archiving the band; `bandstand import <file>` restores it into ' +
            'a new database. A zip archive: the JSON document (tables in dependency order, ' +
            'rows by primary key, ids kept; `excluded` names what is left out and why) and ' +
            'each song and gig file once by its SHA-256. `?format=json`: the document alone. ' +
            'A database over 16 MB of data, or an archive over 4 GiB, is 409 ' +
            'EXPORT_TOO_LARGE (use `bandstand export <file>`, or a backup).',
          ...(deprecated ? { deprecated: true } : {}),
          querystring: BandExportQuery,
          response: { 200: BandExportDocument, 409: ErrorResponse }
        }
      },
      async (request, reply) => {
        const now = app.clock()
        const format = request.query.format ?? (deprecated ? 'json' : 'zip')
        let document
        let body
        try {
          document = buildBandExport(app.sqlite, { now })
          body = format === 'json'
            ? Buffer.from(JSON.stringify(document))
            : bandArchiveStream(document, {
              pathOf: (sha256) => app.files.store.pathOf(sha256),
              onMissing: ({ sha256 }) => request.log.error({ sha256 },
                'file missing on disk: left out of the band export (restore it from a backup)')
            })
        } catch (error) {
          if (!(error instanceof ExportTooLarge)) throw error
          throw conflict('EXPORT_TOO_LARGE', error.message)
        }
        const date = todayIn(app.appSettings.get().timezone, now)
        return reply
          .type(format === 'json' ? 'application/json; charset=utf-8' : 'application/zip')
          .header(
            'content-disposition',
            contentDisposition('attachment', `Bandstand-Export-${date}.${format}`)
          )
          .header('cache-control', 'private, no-store')
          .send(body)
      }
    )
  }
}
export default exportRoutes
