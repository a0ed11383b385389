import { Type, type Static } from '@sinclair/typebox'
import { Instant } from './common.js'
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

export const BandExportDocument = Type.Unsafe<Buffer>({
  description:
    'The band export (JSON): { format, formatVersion, exportedAt, appVersion, schemaVersion, ' +
    'excluded: { tables, columns }, tables: [{ name, columns: [{ name, type }], primaryKey, ' +
    'rows }], sequences }',
  content: { 'application/json': { schema: { type: 'object' } } }
})
