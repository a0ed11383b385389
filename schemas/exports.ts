import type { Readable } from 'node:stream'
import { Type, type Static } from '@sinclair/typebox'
import { Instant, StrictObject, StringEnum } from './common.js'
import { Gig } from './gigs.js'
import { Setlist } from './setlists.js'

export const SeasonParams = Type.Object({
  year: Type.Integer({ minimum: 1900, maximum: 2999, description: 'the season: a calendar year' })
})

export const SeasonSetlists = Type.Object({
  format: Type.Literal('bandstand-season-setlists'),
  formatVersion: Type.Literal(1),
  season: Type.Integer(),
  bandName: Type.String(),
  exportedAt: Instant,
  gigs: Type.Array(Type.Object({ gig: Gig, setlist: Setlist }), {
    description: 'every gig of the year except declined ones, in date order'
  })
})
export type SeasonSetlistsType = Static<typeof SeasonSetlists>

export const BAND_EXPORT_FORMATS = ['zip', 'json'] as const

export const BandExportQuery = StrictObject({
  format: Type.Optional(StringEnum(BAND_EXPORT_FORMATS, {
    description: '`zip`: the archive with the song and gig files; `json`: the document alone ' +
      '(no file bytes)'
  }))
})

/** A Buffer (the JSON) or a stream (the archive): both bypass the serializer. */
export const BandExportDocument = Type.Unsafe<Buffer | Readable>({
  description:
    'The archive (`bandstand-export.json` and `files/<sha256>`, docs/api.md#exports) or the ' +
    'document (JSON): { format, formatVersion, exportedAt, appVersion, schemaVersion, ' +
    'excluded: { tables, columns }, tables: [{ name, columns: [{ name, type }], primaryKey, ' +
    'rows }], sequences }',
  content: {
    'application/zip': { schema: { type: 'string', format: 'binary' } },
    'application/json': { schema: { type: 'object' } }
  }
})
