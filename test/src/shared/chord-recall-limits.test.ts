// A chart's {chorus} recalls repeat a bounded number of lines and text on every reader: a 64 KiB
// chart cannot become millions of lines.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  parseChordPro, parseChordProLazily, RECALL_LIMITS, sectionsOf, type Chart
} from '#shared/chords/chordpro.js'
import { MAX_CHART_BYTES } from '#schemas/songs.js'
import { recallBomb } from '#test/chart-bombs.js'

const lineCount = (chart: Chart) =>
  [...sectionsOf(chart)].reduce((sum, section) => sum + section.lines.length, 0)

test('recalls: a chorus recalled as a song does repeats every time', () => {
  const chart = parseChordPro('{soc: Refrain}\n[G]Oh [C]yeah\n[D]yeah\n{eoc}\n[Em]Verse\n' +
    '{chorus}\n[Em]Verse 2\n{chorus: Last}\n')
  const recalls = chart.sections.filter((s) => s.recall)
  assert.equal(recalls.length, 2)
  assert.ok(recalls.every((s) => s.lines.length === 2 && !s.clipped))
  assert.deepEqual(recalls.map((s) => s.label), ['Refrain', 'Last'])
})

test('recalls: a 64 KiB chart recalling its chorus thousands of times stays bounded', () => {
  const source = recallBomb()
  assert.ok(Buffer.byteLength(source) <= MAX_CHART_BYTES)
  for (const chart of [parseChordPro(source), parseChordProLazily(source)]) {
    const sections = [...sectionsOf(chart)]
    // Without the limits: 300 lines × ~7,100 recalls, 2.1 million lines.
    assert.ok(lineCount(chart) <= 300 + RECALL_LIMITS.lines, `${lineCount(chart)} lines`)
    assert.equal(sections.filter((s) => s.recall && !s.clipped).length,
      Math.floor(RECALL_LIMITS.lines / 301))
    assert.ok(sections.filter((s) => s.clipped).every((s) => s.recall && s.lines.length === 0))
    assert.ok(sections.some((s) => s.clipped))
  }
})

test('recalls: long chorus lines are bounded by text, not only by line count', () => {
  // 20 lines of 1,000 characters: the line limit alone would let 250 recalls through (5 MB).
  const chorus = `{soc}\n${`[C]${'la '.repeat(333)}\n`.repeat(20)}{eoc}\n`
  const chart = parseChordPro(chorus + '{chorus}\n'.repeat(250))
  const kept = chart.sections.filter((s) => s.recall && !s.clipped).length
  const budget = Math.max(RECALL_LIMITS.textMin, RECALL_LIMITS.textFactor * (chorus.length +
    '{chorus}\n'.length * 250))
  assert.ok(kept > 0 && kept * 20 * 1000 <= budget, `${kept} recalls kept`)
  assert.ok(chart.sections.at(-1)!.clipped)
})
