import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { projectPath } from '#src/project-path.js'
import {
  chordsOverLyricsToChordPro,
  parseChordPro,
  transposeChart,
  type Chart
} from '#shared/chords/index.js'

// Charts to and from other text: chords over lyrics made ChordPro, and the web app's HTML of a
// chart, whole and in pieces.

const read = (name: string) =>
  readFileSync(projectPath('test', 'fixtures', 'charts', name), 'utf8')

describe('chords over lyrics → ChordPro', () => {
  it('puts each chord at its column into the lyric line below it', () => {
    const pasted = [
      '[Verse 1]',
      'G       C          G',
      'Amazing grace, how sweet',
      '',
      'Chorus:',
      'Am   F    C   G',
      '',
      'Em         D',
      'That saved a wretch'
    ].join('\r\n')
    assert.equal(chordsOverLyricsToChordPro(pasted, 'english'), [
      '{start_of_verse: Verse 1}',
      '[G]Amazing [C]grace, how [G]sweet',
      '{end_of_verse}',
      '',
      '{start_of_chorus: Chorus}',
      '[Am]     [F]     [C]    [G]',
      '{end_of_chorus}',
      '',
      '[Em]That saved [D]a wretch'
    ].join('\n'))
  })

  it('keeps tablature below lyrics in a tab section of its own', () => {
    assert.equal(chordsOverLyricsToChordPro(
      'Verse\nC\nla\ne|---0---|\nB|---1---|\n', 'english'),
    '{start_of_verse: Verse}\n[C]la\n{end_of_verse}\n{start_of_tab}\ne|---0---|\nB|---1---|\n' +
      '{end_of_tab}\n')
  })

  it('extends a short lyric line to the last chord and reads German chords', () => {
    assert.equal(chordsOverLyricsToChordPro('D        H7\nKein Land', 'german'),
      '[D]Kein Land[H7]')
  })

  it('leaves ChordPro and plain lyrics as they are', () => {
    const cho = read('amazing-grace.cho')
    assert.equal(chordsOverLyricsToChordPro(cho, 'english'), cho)
    assert.equal(chordsOverLyricsToChordPro('A song\nwith words', 'english'),
      'A song\nwith words')
  })
})

describe('the chart as HTML (web app)', () => {
  it('escapes every text, marks choruses, leaves chords out on request', async () => {
    const { chartHtml } = (await import(
      pathToFileURL(projectPath('web', 'src', 'lib', 'chart', 'chart-html.ts')).href
    )) as { chartHtml: (chart: Chart, chords: boolean, label: (kind: string) => string) => string }
    const chart = parseChordPro([
      '{soc}',
      // Markup is reduced to text; text that reads as a tag once decoded is still escaped.
      '[<b>]&lt;script&gt;alert(1)&lt;/script&gt; & "x"<img src=x onerror=alert(1)>',
      '{eoc}',
      '{c: <img src=x onerror=alert(1)>}',
      '{chorus}'
    ].join('\n'))
    const html = chartHtml(chart, true, (kind) => `[${kind}]`)
    assert.ok(!html.includes('<script>') && !html.includes('<img') && !html.includes('<b>'))
    assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot;'))
    assert.equal(html.match(/class="section chorus/g)?.length, 2)
    assert.ok(html.includes('class="section chorus recall"'))
    assert.ok(html.includes('<p class="section-label">[chorus]</p>'))
    const lyricsOnly = chartHtml(chart, false, (kind) => kind)
    assert.ok(!lyricsOnly.includes('class="chord'))
  })
})

describe('the chart in pieces (web app: the first screen first, the rest after it)', () => {
  interface Chunk { into: 'chart' | 'section'; html: string; last?: boolean }
  const load = async () => (await import(
    pathToFileURL(projectPath('web', 'src', 'lib', 'chart', 'chart-html.ts')).href
  )) as {
    chartHtml: (chart: Chart, chords: boolean, label: (kind: string) => string) => string
    chartChunks: (chart: Chart, chords: boolean, label: (kind: string) => string,
      lines?: number, firstRows?: number, rowChars?: number) => Chunk[]
    chordNames: (chart: Chart) => string[]
  }
  // Long sections (a 40-line verse) and short ones, a plain part without directives, a recall.
  const source = [
    'Intro without a section',
    ...Array.from({ length: 30 }, (_, i) => `[G]plain ${i} [C]line`),
    '{sov: Verse 1}',
    ...Array.from({ length: 40 }, (_, i) => `[Em]verse ${i} [*Rit.]slow [D/F#]on`),
    '{eov}',
    '{soc}',
    '[C]Chorus [G]line',
    '{eoc}',
    '{chorus}',
    'lyrics only'
  ].join('\n')

  it('puts the pieces together into exactly the whole chart', async () => {
    const { chartHtml, chartChunks } = await load()
    const chart = parseChordPro(source)
    const whole = chartHtml(chart, true, (kind) => kind)
    for (const lines of [1, 12, 24, 48, 1000]) {
      const chunks = chartChunks(chart, true, (kind) => kind, lines)
      if (lines < 48) assert.ok(chunks.length > 2, `${lines}: ${chunks.length} pieces`)
      assert.ok(chunks.slice(1).some((c) => c.into === 'section') || lines >= 48)
      // A piece for the last section goes inside it, before its closing tag.
      const assembled = chunks.reduce((html, chunk) => chunk.into === 'chart'
        ? html + chunk.html
        : `${html.slice(0, -'</div>'.length)}${chunk.html}</div>`, '')
      assert.equal(assembled, whole, `${lines} lines a piece`)
    }
    assert.equal(chartChunks(parseChordPro(''), true, (kind) => kind, 12).length, 1)
  })

  it('cuts the first piece at the screen\'s rows (a line with chords is two), the rest by lines',
    async () => {
      const { chartHtml, chartChunks } = await load()
      const chart = parseChordPro(source)
      const whole = chartHtml(chart, true, (kind) => kind)
      const count = (html: string, re: RegExp) => html.match(re)?.length ?? 0
      // Sections and their lines in order, whatever the blocks around them.
      const parts = (html: string) =>
        html.match(/<div class="section[^"]*">|<p class="[^"]*">.*?<\/p>|<\/div><div class="section/g)
      const lines = (html: string) => count(html, /<p class="line/g)
      const rowsIn = (html: string) => 2 * count(html, /<p class="line">/g) +
        count(html, /<p class="line text">/g) + count(html, /section-label/g)
      for (const rows of [1, 10, 30, 60]) {
        const chunks = chartChunks(chart, true, (kind) => kind, 48, rows)
        const assembled = chunks.reduce((html, chunk) => chunk.into === 'chart'
          ? html + chunk.html
          : `${html.slice(0, -'</div>'.length)}${chunk.html}</div>`, '')
        // The first piece's blocks, and only they, are marked as the first screen's; the piece
        // may end inside a block of 4 lines: the same lines and sections in the same order.
        assert.deepEqual(parts(assembled), parts(whole), `${rows} rows`)
        const first = chunks[0]!.html
        assert.equal(count(first, /"block screen"/g), count(first, /"block/g))
        assert.ok(chunks.slice(1).every((c) => !c.html.includes('screen')))
        // Cut between blocks, at the first block that fills the rows.
        assert.ok(rowsIn(first) >= rows, `${rows} rows`)
        const lastLine = first.lastIndexOf('<p class="line')
        assert.ok(rowsIn(first.slice(0, lastLine)) < rows, `${rows} rows: no line too many`)
        assert.deepEqual(chunks.map((c) => c.last === true),
          chunks.map((_, i) => i === chunks.length - 1))
      }
      // Without chords a line is one row: twice the lines for the same rows (blocks of 4 lines).
      assert.equal(lines(chartChunks(chart, true, (kind) => kind, 48, 30)[0]!.html), 16)
      assert.equal(lines(chartChunks(chart, false, (kind) => kind, 48, 30)[0]!.html), 30)
      // A line wider than a row wraps: "[G]plain 0 [C]line" is 12 characters, at 6 a row 4 rows
      // with its chords; the intro (23 characters, no chords) 4 rows: 32 rows in 8 lines.
      const narrow = chartChunks(chart, true, (kind) => kind, 48, 30, 6)
      assert.equal(lines(narrow[0]!.html), 8)
      assert.deepEqual(parts(narrow.reduce((html, chunk) => chunk.into === 'chart'
        ? html + chunk.html
        : `${html.slice(0, -'</div>'.length)}${chunk.html}</div>`, '')), parts(whole))
      // Wide enough for every line: as without wrapping.
      assert.equal(lines(chartChunks(chart, true, (kind) => kind, 48, 30, 80)[0]!.html), 16)
      assert.deepEqual(chartChunks(parseChordPro('one line'), true, (kind) => kind, 48, 1)
        .map((c) => c.last), [true])
    })

  it('names every chord element in document order, annotations and empty ones included',
    async () => {
      const { chartHtml, chordNames } = await load()
      const chart = parseChordPro(source)
      const html = chartHtml(chart, true, (kind) => kind)
      const inHtml = [...html.matchAll(/<span class="chord[^"]*">([^<]*)<\/span>/g)]
        .map((m) => m[1])
      assert.deepEqual(chordNames(chart), inHtml)
      const moved = transposeChart(chart, 2, 'english')
      assert.deepEqual(chordNames(moved).slice(0, 2), ['A', 'D'])
      assert.ok(chordNames(moved).includes('Rit.'))
      assert.ok(chordNames(moved).includes('E/G#'))
      assert.equal(chordNames(moved).length, inHtml.length)
    })
})
