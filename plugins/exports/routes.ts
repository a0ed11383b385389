import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorResponse } from '#schemas/common.js'
import { BandExportDocument, SeasonParams, SeasonSetlists } from '#schemas/exports.js'
import { conflict } from '#src/errors.js'
import { buildBandExport, ExportTooLarge } from '#src/repositories/band-export.js'
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
  // link), and /exports/band, where it was first published, kept for scripts that already use it.
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
          summary: 'Full band export: every table except secrets and sessions, one versioned JSON',
          description:
            (deprecated ? 'The same as GET /admin/export (kept for existing scripts). ' : '') +
            'For moving or archiving the band; `bandstand import <file.json>` restores it into ' +
            'a new database. Tables in dependency order, rows by primary key, ids kept; ' +
            '`excluded` names what is left out and why (sessions, token hashes, password ' +
            'hashes). A database over 16 MB of data is 409 EXPORT_TOO_LARGE (use `bandstand ' +
            'export <file.json>`).',
          ...(deprecated ? { deprecated: true } : {}),
          response: { 200: BandExportDocument, 409: ErrorResponse }
        }
      },
      async (request, reply) => {
        const now = app.clock()
        let document
        try {
          document = buildBandExport(app.sqlite, { now })
        } catch (error) {
          if (!(error instanceof ExportTooLarge)) throw error
          throw conflict('EXPORT_TOO_LARGE', error.message)
        }
        const date = todayIn(app.appSettings.get().timezone, now)
        return reply
          .type('application/json; charset=utf-8')
          .header(
            'content-disposition',
            contentDisposition('attachment', `Bandstand-Export-${date}.json`)
          )
          .header('cache-control', 'private, no-store')
          .send(Buffer.from(JSON.stringify(document)))
      }
    )
  }
}
export default exportRoutes
