import { Type, type Static } from '@sinclair/typebox'
import { Nullable } from './common.js'
import { ChordNotation } from './app-config.js'
import { Capo, LiveStatus, Transpose } from './setlists.js'

/** One setlist entry's chart, as the stage view and the songbook PDF read it. */
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
    id: Type.Integer(),
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
  }),
  chart: Nullable(Type.String({ description: 'ChordPro text as stored; null: the song has none' }))
})
export type GigChartType = Static<typeof GigChart>

export const GigCharts = Type.Object({
  gigId: Type.Integer(),
  notation: ChordNotation,
  charts: Type.Array(GigChart, {
    description: 'every song entry of the setlist in running order (free-text entries have none)'
  })
})
export type GigChartsType = Static<typeof GigCharts>
