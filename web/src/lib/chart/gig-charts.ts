import type { Ok } from '$lib/api/types'

type ChartsAnswer = Ok<'/gigs/{id}/charts', 'get'>
/** An entry with its song's chart (null: none), as the stage view reads it. */
export type GigChart = ChartsAnswer['charts'][number] & { chart: string | null }
export type GigCharts = Omit<ChartsAnswer, 'charts' | 'songs'> & { charts: GigChart[] }

/**
 * The server sends each chart once, by song: each entry gets its song's chart again (the same
 * string, not a copy), so a song played twice costs its chart once here too.
 */
export function withCharts (answer: ChartsAnswer): GigCharts {
  const bySong = new Map(answer.songs.map((song) => [song.id, song.chart]))
  return {
    gigId: answer.gigId,
    notation: answer.notation,
    charts: answer.charts.map((entry) => ({ ...entry, chart: bySong.get(entry.song.id) ?? null }))
  }
}
