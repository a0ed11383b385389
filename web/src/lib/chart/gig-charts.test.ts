import { describe, expect, it } from 'vitest'
import { withCharts } from './gig-charts'

const song = (id: number) => ({
  id,
  title: `Song ${id}`,
  artist: null,
  key: 'C',
  keyTransposed: 'C',
  tempoBpm: null,
  leadSinger: null
})
const entry = (entryId: number, songId: number) => ({
  entryId,
  position: entryId,
  setId: 1,
  setName: 'Set 1',
  positionInSet: entryId,
  status: 'planned' as const,
  transpose: 0,
  capo: null,
  song: song(songId)
})

describe('withCharts', () => {
  it('gives every entry its song’s chart, the same string for a song played twice', () => {
    const chart = '[C]Once'
    const doc = withCharts({
      gigId: 7,
      notation: 'german',
      charts: [entry(1, 10), entry(2, 11), entry(3, 10)],
      songs: [{ id: 10, chart }]
    })
    expect(doc.gigId).toBe(7)
    expect(doc.charts.map((c) => c.chart)).toEqual([chart, null, chart])
    expect(doc.charts[0]!.chart).toBe(doc.charts[2]!.chart)
    expect(doc).not.toHaveProperty('songs')
  })
})
