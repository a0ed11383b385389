import { Type, type Static } from '@sinclair/typebox'
import { Nullable } from './common.js'
import { ChordNotation } from './app-config.js'
import { Capo, LiveStatus, Transpose } from './setlists.js'

/**
 * The most chart text (UTF-8 bytes, each song's chart counted once) that GET /gigs/{id}/charts
 * and the songbook carry; the CSV counts each entry's chart. Beyond it: 413 CHARTS_TOO_LARGE.
 * 8 MiB is 128 charts at the 64 KiB limit, or ~800 ordinary ones.
 */
export const MAX_GIG_CHART_BYTES = 8 * 1024 * 1024
/**
 * The most chart text a songbook lays out, each entry's chart counted (a song played twice is
 * printed twice): its render time grows with it, ~3 s per 64 KiB chart on a small server.
 */
export const MAX_SONGBOOK_CHART_BYTES = 1024 * 1024

/** One setlist entry of the stage view and the songbook; its chart is in `songs` by song id. */
export const GigChart = Type.Object({
  entryId: Type.Integer(),
  position: Type.Integer({ description: 'place in the running order, from 1' }),
  setId: Type.Integer(),
  setName: Type.String(),
  positionInSet: Type.Integer({ description: 'place in its set, from 1' }),
  status: LiveStatus,
  transpose: Transpose,
  capo: Capo,
  song: Type.Object({
    id: Type.Integer({ description: 'its chart: the item of `songs` with this id' }),
    title: Type.String(),
    artist: Nullable(Type.String()),
    key: Nullable(Type.String({
      description: 'the song\'s key as the chart is written: canonical ("Bb", "Gm"), or an ' +
        'old key that could not be read, as written'
    })),
    keyTransposed: Nullable(
      Type.String({
        description: 'the key moved by `transpose`, canonical; an unreadable old key unmoved'
      })
    ),
    tempoBpm: Nullable(Type.Integer()),
    leadSinger: Nullable(Type.String())
  })
})
export type GigChartType = Static<typeof GigChart>

/** A song's chart, once however often the setlist plays it. */
export const SongChart = Type.Object({
  id: Type.Integer({ description: 'the song' }),
  chart: Type.String({ description: 'ChordPro text as stored' })
})
export type SongChartType = Static<typeof SongChart>

export const GigCharts = Type.Object({
  gigId: Type.Integer(),
  notation: ChordNotation,
  charts: Type.Array(GigChart, {
    description: 'every song entry of the setlist in running order (free-text entries have none)'
  }),
  songs: Type.Array(SongChart, {
    description: 'the chart of each song of the setlist that has one, once per song'
  })
})
export type GigChartsType = Static<typeof GigCharts>
