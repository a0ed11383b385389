import { describe, expect, it } from 'vitest'
import { RECALL_LIMITS } from '$shared/chords/chordpro'
import { parsedChart, transposedChart } from './chart-cache'
import { chartHtml } from './chart-html'

// The song page and the stage view read a chart stored before the recall limits (or a member's
// proposal) with the same parser: its recalls stop there, the tab does not keep appending lines.
describe('a chart whose {chorus} recalls would expand without bound', () => {
  const head = `{soc}\n${'[C]a\n'.repeat(39)}{eoc}\n`
  const bomb = head + '{chorus}\n'.repeat(Math.floor((64 * 1024 - head.length) / 9))

  it('renders the chorus and its recalls up to the limit, and empty recalls after', () => {
    const html = chartHtml(transposedChart(parsedChart(bomb), 2, 'german', null), true, (k) => k)
    const lines = html.match(/class="line"/g)?.length ?? 0
    expect(lines).toBe(39 + 39 * Math.floor(RECALL_LIMITS.lines / 40))
    expect(html.length).toBeLessThan(1024 * 1024)
  })
})
