import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import fc from 'fast-check'
import { projectPath } from '#src/project-path.js'
import {
  memberSelectors,
  parseChordPro,
  parseChordProLazily,
  plainText,
  printChordPro,
  readChordPro,
  sectionsOf,
  type Chart
} from '#shared/chords/index.js'

const read = (name: string) =>
  readFileSync(projectPath('test', 'fixtures', 'charts', name), 'utf8')

const texts = (chart: Chart) =>
  chart.sections.flatMap((s) => s.lines.flatMap((l) =>
    l.kind === 'lyrics'
      ? [l.pairs.map((p) => p.text).join('')]
      : l.kind === 'comment' ? [`(${l.text})`] : l.kind === 'tab' ? [l.text] : []))

type HtmlOf = (chart: Chart, chords: boolean, label: (kind: string) => string) => string
const chartHtml = async () => ((await import(
  pathToFileURL(projectPath('web', 'src', 'lib', 'chart', 'chart-html.ts')).href
)) as { chartHtml: HtmlOf }).chartHtml

describe('ChordPro files as the ChordPro program reads them', () => {
  it('shows the song of a file with every directive of the reference, and nothing else', () => {
    const { chart, ignored } = readChordPro(read('every-directive.cho'))
    assert.deepEqual(chart.meta, {
      title: 'The Lighthouse Keeper',
      subtitle: 'a sea song',
      artist: 'The Harbour Band',
      key: 'G',
      capo: 2,
      tempo: 96,
      time: '6/8',
      duration: '3:05'
    })
    assert.deepEqual(texts(chart), [
      'The lamp is lit, the tide is high',
      'The gulls are crying out to sea',
      'Keep the light, keep the light',
      'Spoken: "and now, the last verse"',
      '| G . . . | C . . . |',
      'Keep the light, keep the light'
    ])
    assert.deepEqual(chart.sections.map((s) => [s.kind, s.label]), [
      ['verse', 'Verse 1'],
      ['plain', null],
      ['chorus', 'Chorus'],
      ['plain', null],
      ['plain', null],
      ['plain', null],
      ['plain', null],
      ['tab', 'Intro'],
      ['chorus', 'Last chorus']
    ])
    const delegates = chart.sections.flatMap((s) => s.lines)
      .flatMap((l) => (l.kind === 'delegate' ? [l.notation] : []))
    assert.deepEqual(delegates, ['abc', 'ly', 'svg'])
    // Listed once each, in the order met: what the chart editor shows.
    assert.deepEqual(ignored, [
      'columns', 'pagetype', 'titles', 'diagrams', 'textfont', 'textsize', 'chordfont',
      'chordcolour', 'define', 'chord', 'grid', 'no_grid', 'x_songbook_page', 'image',
      'column_break', 'start_of_abc', 'start_of_ly', 'start_of_svg', 'start_of_musicxml'
    ])
  })

  it('leaves every ignored directive and delegated music off the stage', async () => {
    const html = (await chartHtml())(parseChordPro(read('every-directive.cho')), true,
      (kind) => (['abc', 'ly', 'svg'].includes(kind) ? '' : kind))
    for (const shown of ['X: 1', 'K: G', 'relative', 'SVG SOURCE', 'MUSICXML', 'spread',
      'example.org', 'image', 'columns', 'Courier', '&lt;', 'img', '<hr']) {
      assert.ok(!html.includes(shown), `the stage shows ${shown}`)
    }
    assert.ok(html.includes('light, keep the ') && html.includes('Spoken'))
    // The preview notes the music it leaves out.
    const preview = (await chartHtml())(parseChordPro(read('every-directive.cho')), true,
      (kind) => `<${kind}>`)
    assert.equal(preview.match(/class="comment italic delegate">&lt;(abc|ly|svg)&gt;/g)?.length, 3)
  })

  it('follows selectors with the member\'s instruments, as ChordPro does', () => {
    const source = read('instruments.cho')
    const shown = (instruments: string[]) => {
      const chart = parseChordPro(source, { selectors: memberSelectors(instruments, 'lena') })
      return [chart.meta.title, ...texts(chart)]
    }
    assert.deepEqual(shown(['Gitarre']), ['Harbour Lights', '(Guitar: capo 2, fingerpick)',
      'Harbour lights are shining', 'Strum it slowly'])
    assert.deepEqual(shown(['Keys']), ['Harbour Lights (piano part)',
      '(Piano: left hand an octave down)', '(Not for guitars)', 'Harbour lights are shining',
      'Arpeggio softly'])
    assert.deepEqual(shown([]), ['Harbour Lights', '(Not for guitars)',
      'Harbour lights are shining'])
    assert.deepEqual(memberSelectors([' Piano ', '', 'Bass'], 'Lena'),
      ['piano', 'keyboard', 'bass', 'lena'])
    // A user's name selects too.
    assert.deepEqual(texts(parseChordPro('{c-lena: for Lena}\n{c-max: for Max}',
      { selectors: memberSelectors([], 'Lena') })), ['(for Lena)'])
  })

  it('shows the next songs of one file after the first, whose metadata stays', () => {
    const chart = parseChordPro(read('two-songs.cho'))
    assert.equal(chart.meta.title, 'First Tune')
    assert.deepEqual(texts(chart), ['One song here', '(Second Tune)', '(Its own subtitle)',
      'Another one', '(Third Tune)', 'And a third'])
  })

  it('moves the chords after {transpose} and back after an empty one', () => {
    const chart = parseChordPro(read('in-chart-transpose.cho'))
    const chords = chart.sections.flatMap((s) => s.lines).flatMap((l) =>
      l.kind === 'lyrics' ? l.pairs.flatMap((p) => (p.chord ? [p.chord] : [])) : [])
    assert.deepEqual(chords, ['C', 'G', 'D', 'A', 'Rit.', 'C', 'G'])
    const down = parseChordPro('{transpose: -1}\n[C]x', { notation: 'german' })
    assert.deepEqual(texts(down), ['x'])
    assert.equal(down.sections[0]!.lines[0]!.kind === 'lyrics' &&
      down.sections[0]!.lines[0]!.pairs[0]!.chord, 'H')
  })

  it('reduces markup to text and reads labels as ChordPro 6 writes them', () => {
    assert.equal(plainText('<b>bold</b> &amp; <span foreground="red">red</span> a < b'),
      'bold & red a < b')
    const chart = parseChordPro([
      '{sov: Verse 2}', 'x', '{eov}',
      "{soc: label='Chorus <i>2</i>'}", 'y', '{eoc}',
      '{sog 1+4x2+4}', '| C |', '{eog}',
      '{meta: title From meta}', '{meta: lonely}',
      '{start_of_textblock}', '<b></b>', '{end_of_textblock}'
    ].join('\n'))
    assert.deepEqual(chart.sections.map((s) => s.label), ['Verse 2', 'Chorus 2', null])
    assert.equal(chart.meta.title, 'From meta')
  })

  it('parses what the lazy reader parses, for the new files too', () => {
    for (const file of ['every-directive.cho', 'instruments.cho', 'two-songs.cho']) {
      const eager = parseChordPro(read(file), { selectors: ['piano'] })
      const lazy = parseChordProLazily(read(file), { selectors: ['piano'] })
      assert.deepEqual([...sectionsOf(lazy)], eager.sections)
      assert.deepEqual(lazy.meta, eager.meta)
    }
  })
})

// Text the way charts go wrong: brackets, braces, markup and directives in any order.
const chartish = fc.array(fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom('[', ']', '{', '}', '<', '>', '&', '#', ':', '\n', '\r\n', ' ', '*', '-', '!',
    '[C]', '[*Rit.]', '{soc}', '{eoc}', '{sov: V}', '{eov}', '{sot}', '{eot}', '{chorus}',
    '{start_of_abc}', '{end_of_abc}', '{start_of_textblock}', '{end_of_textblock}',
    '{start_of_x}', '{end_of_x}', '{c: note}', '{title: T}', '{new_song}', '{transpose: 3}',
    '{meta: artist A}', '{soc-piano}', '{c-guitar!: g}', '<b>', '</b>', '&lt;', '<img src=x/>',
    'label="L"', '{key: G}', '{capo: x}', '\uFEFF')
), { maxLength: 60 }).map((parts) => parts.join(''))

describe('the ChordPro reader on any text (property tests)', () => {
  it('parses any text without throwing', () => {
    const any = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), chartish)
    fc.assert(fc.property(any, (text) => {
      readChordPro(text, { selectors: ['piano'] })
      const lazy = parseChordProLazily(text)
      for (const section of sectionsOf(lazy)) assert.ok(section.kind)
    }), { numRuns: 2000 })
  })

  it('prints what it parsed so that parsing the print again is stable', () => {
    fc.assert(fc.property(chartish, (text) => {
      const printed = printChordPro(parseChordPro(text))
      const again = parseChordPro(printed)
      assert.equal(printChordPro(again), printed)
      assert.deepEqual(parseChordPro(printChordPro(again)), again)
    }), { numRuns: 3000 })
  })

  it('prints a real chart so that it parses to the same chart', () => {
    for (const file of ['every-directive.cho', 'amazing-grace.cho', 'chorus-labels.cho',
      'tab.cho', 'two-songs.cho']) {
      const chart = parseChordPro(read(file))
      const again = parseChordPro(printChordPro(chart))
      assert.deepEqual(texts(again), texts(chart), file)
      assert.deepEqual(again.meta, chart.meta, file)
    }
  })
})
