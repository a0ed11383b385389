import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { projectPath } from '#src/project-path.js'
import {
  chartChords,
  lazyChart,
  parseChord,
  parseChordPro,
  parseChordProLazily,
  sectionsOf,
  transposeChart,
  transposeChord,
  transposeKey,
  type Chart,
  type ChordNotation
} from '#shared/chords/index.js'

const read = (name: string) =>
  readFileSync(projectPath('test', 'fixtures', 'charts', name), 'utf8')

interface Case {
  file: string
  notation: ChordNotation
  title: string | null
  key?: string | null
  chords: string[]
  /** Semitones, and the chords and key expected after moving by them. */
  transpose: [number, string[], (string | null)?]
  sections?: string[]
  check?: (chart: Chart) => void
}

const lyricsText = (chart: Chart) =>
  chart.sections.flatMap((s) => s.lines.flatMap((l) =>
    l.kind === 'lyrics' ? [l.pairs.map((p) => p.text).join('')] : []))

const comments = (chart: Chart) =>
  chart.sections.flatMap((s) => s.lines.flatMap((l) => (l.kind === 'comment' ? [l.text] : [])))

// 24 charts: traditional songs as bands write them, in both notations, with the edge cases.
const cases: Case[] = [
  {
    file: 'amazing-grace.cho',
    notation: 'english',
    title: 'Amazing Grace',
    key: 'G',
    chords: ['G', 'G7', 'C', 'G', 'G', 'Em', 'D'],
    transpose: [2, ['A', 'A7', 'D', 'A', 'A', 'F#m', 'E'], 'A'],
    sections: ['verse'],
    check: (c) => {
      assert.equal(c.meta.tempo, 72)
      assert.equal(c.meta.time, '3/4')
      assert.equal(c.meta.artist, 'John Newton')
      assert.deepEqual(lyricsText(c)[0], 'Amazing grace, how sweet the sound')
      assert.equal(comments(c).length, 0, '# lines are left out')
    }
  },
  {
    file: 'stille-nacht-crlf.cho',
    notation: 'german',
    title: 'Stille Nacht',
    key: 'B-Dur',
    chords: ['B', 'F7', 'B', 'Es', 'B'],
    transpose: [2, ['C', 'G7', 'C', 'F', 'C'], 'C-Dur'],
    sections: ['chorus'],
    check: (c) => {
      assert.equal(c.meta.capo, 1)
      assert.equal(c.sections[0]?.label, 'Refrain')
      assert.ok(lyricsText(c).every((l) => !l.includes('\r')), 'Windows line endings')
      assert.equal(lyricsText(c)[1], 'Alles schläft, einsam wacht')
    }
  },
  {
    file: 'house-rising-sun.cho',
    notation: 'english',
    title: 'House of the Rising Sun',
    key: 'Am',
    chords: ['Am', 'C', 'D', 'F', 'Am', 'C', 'E7', 'Am', 'C', 'D', 'F', 'Am', 'E7', 'Am'],
    transpose: [-5, ['Em', 'G', 'A', 'C', 'Em', 'G', 'B7', 'Em', 'G', 'A', 'C', 'Em', 'B7', 'Em'],
      'Em'],
    check: (c) => {
      assert.equal(c.meta.subtitle, 'Traditional')
      assert.deepEqual(comments(c), ['Organ solo'])
    }
  },
  {
    file: 'greensleeves.cho',
    notation: 'english',
    title: 'Greensleeves',
    key: 'Em',
    chords: ['Em', 'D', 'C', 'B7', 'G', 'D', 'Em', 'Em'],
    transpose: [1, ['Fm', 'Eb', 'Db', 'C7', 'Ab', 'Eb', 'Fm', 'Fm'], 'Fm'],
    sections: ['plain', 'chorus', 'plain', 'chorus'],
    check: (c) => {
      const recall = c.sections[3]
      assert.equal(recall?.recall, true)
      assert.deepEqual(recall?.lines, c.sections[1]?.lines, '{chorus} repeats the last chorus')
    }
  },
  {
    file: 'no-chords.cho',
    notation: 'english',
    title: null,
    key: null,
    chords: [],
    transpose: [5, []],
    check: (c) => {
      assert.deepEqual(lyricsText(c), ['Just lyrics here,', 'no chord at all.', 'A second verse'])
      assert.equal(transposeChart(c, 5, 'english').sections[0]?.lines.length, 4)
    }
  },
  {
    file: 'slash-chords.cho',
    notation: 'english',
    title: 'Slash walk',
    key: 'C',
    chords: ['C', 'C/B', 'Am7/G', 'F#m7b5', 'Fmaj7/E', 'Dm7/C', 'G7sus4', 'G7'],
    transpose: [2, ['D', 'D/C#', 'Bm7/A', 'G#m7b5', 'Gmaj7/F#', 'Em7/D', 'A7sus4', 'A7'], 'D']
  },
  {
    file: 'qualities.cho',
    notation: 'english',
    title: 'Qualities',
    chords: ['Csus2', 'Dsus4', 'Eadd9', 'F#dim7', 'Gaug', 'Am(maj7)', 'Bbm6', 'C#m7b5',
      'Ebmaj7', 'Fo7', 'Gø'],
    // No key: the first chord (C) moved by 3 is E flat major, so flats.
    transpose: [3, ['Ebsus2', 'Fsus4', 'Gadd9', 'Adim7', 'Bbaug', 'Cm(maj7)', 'Dbm6', 'Em7b5',
      'Gbmaj7', 'Abo7', 'Bbø']]
  },
  {
    file: 'tab.cho',
    notation: 'english',
    title: 'Riff',
    chords: ['E'],
    transpose: [2, ['F#']],
    sections: ['tab', 'plain'],
    check: (c) => {
      const tab = c.sections[0]?.lines ?? []
      assert.deepEqual(tab.map((l) => l.kind), ['tab', 'tab', 'tab'])
      assert.deepEqual(tab[2], { kind: 'tab', text: '[G] not a chord line' }, 'tabs are verbatim')
    }
  },
  {
    file: 'german-h.cho',
    notation: 'german',
    title: 'Kein schöner Land',
    key: 'D-Dur',
    chords: ['D', 'A7', 'D', 'H7', 'Em', 'A', 'D', 'Hm', 'Fis', 'B', 'E', 'Gis'],
    // German spelled names ("Fis") are read; the moved chord is written with # or b.
    transpose: [2, ['E', 'H7', 'E', 'C#7', 'F#m', 'H', 'E', 'C#m', 'G#', 'C', 'F#', 'A#'],
      'E-Dur'],
    check: (c) => {
      assert.deepEqual(parseChord('H7', 'german'), { root: 11, quality: '7', bass: null })
      assert.deepEqual(parseChord('B', 'german'), { root: 10, quality: '', bass: null })
      assert.equal(parseChord('H7', 'english'), null, 'H is no English note')
      assert.deepEqual(parseChord('Esus4', 'german'), { root: 4, quality: 'sus4', bass: null })
      assert.deepEqual(parseChord('Es', 'german'), { root: 3, quality: '', bass: null })
      assert.equal(parseChord('Es', 'english'), null)
      assert.equal(transposeChart(c, 0, 'german'), c)
    }
  },
  {
    file: 'annotations.cho',
    notation: 'english',
    title: 'Outro',
    chords: ['C', 'G', 'C'],
    transpose: [7, ['G', 'D', 'G']],
    check: (c) => {
      const moved = transposeChart(c, 7, 'english')
      const line = moved.sections[0]?.lines[0]
      assert.ok(line?.kind === 'lyrics')
      const notes = line.pairs.filter((p) => p.annotation).map((p) => p.chord)
      assert.deepEqual(notes, ['Rit.', 'Fermata'], 'annotations are never transposed')
    }
  },
  {
    file: 'unknown-directives.cho',
    notation: 'english',
    title: 'Odd',
    chords: ['D', 'A', 'E'],
    transpose: [-2, ['C', 'G', 'D']],
    check: (c) => {
      // Custom and layout directives show nothing (ChordPro ignores them too).
      assert.deepEqual(comments(c), ['Watch the drummer', 'softly'])
      const kinds = c.sections[0]?.lines.map((l) => l.kind)
      assert.equal(kinds?.filter((k) => k === 'pagebreak').length, 2)
      assert.equal(lyricsText(c)[0], 'Text {not a directive} here')
    }
  },
  {
    file: 'chorus-labels.cho',
    notation: 'english',
    title: 'Labels',
    chords: ['C', 'F', 'Bb'],
    transpose: [2, ['D', 'G', 'C']],
    sections: ['chorus', 'chorus', 'chorus', 'chorus', 'bridge'],
    check: (c) => {
      assert.deepEqual(c.sections.map((s) => s.label),
        ['Refrain 1', 'Refrain 2', 'Refrain 2', 'Final refrain', null])
    }
  },
  {
    file: 'when-the-saints.cho',
    notation: 'english',
    title: 'When the Saints Go Marching In',
    key: 'F',
    chords: ['F', 'C7', 'F', 'F7', 'Bb', 'Bbm', 'F', 'C7', 'F'],
    transpose: [2, ['G', 'D7', 'G', 'G7', 'C', 'Cm', 'G', 'D7', 'G'], 'G'],
    check: (c) => assert.equal(c.meta.duration, '2:30')
  },
  {
    file: 'scarborough.cho',
    notation: 'english',
    title: 'Scarborough Fair',
    key: 'Dm',
    chords: ['Dm', 'C', 'Dm', 'F', 'Dm', 'G', 'Dm'],
    transpose: [-2, ['Cm', 'Bb', 'Cm', 'Eb', 'Cm', 'F', 'Cm'], 'Cm']
  },
  {
    file: 'red-river.cho',
    notation: 'english',
    title: 'Red River Valley',
    chords: ['G', 'D7', 'G', 'D', 'D7'],
    transpose: [1, ['Ab', 'Eb7', 'Ab', 'Eb', 'Eb7']],
    // {k} is not ChordPro: ignored, as the ChordPro program does.
    check: (c) => assert.deepEqual(comments(c), [])
  },
  {
    file: 'o-tannenbaum.cho',
    notation: 'german',
    title: 'O Tannenbaum',
    key: 'F-Dur',
    chords: ['F', 'C7', 'F', 'B', 'C7', 'F'],
    transpose: [-1, ['E', 'H7', 'E', 'A', 'H7', 'E'], 'E-Dur']
  },
  {
    file: 'hejo.cho',
    notation: 'german',
    title: 'Hejo, spann den Wagen an',
    key: 'd-Moll',
    chords: ['Dm', 'C', 'Dm', 'Dm', 'C', 'Dm'],
    transpose: [-3, ['Hm', 'A', 'Hm', 'Hm', 'A', 'Hm'], 'h-Moll']
  },
  {
    file: 'kumbaya.cho',
    notation: 'english',
    title: 'Kumbaya',
    chords: ['C', 'F', 'C', 'C', 'F', 'G'],
    transpose: [-12, ['C', 'F', 'C', 'C', 'F', 'G']],
    check: (c) => {
      assert.equal(c.meta.capo, 2)
      assert.equal(c.meta.tempo, 80)
    }
  },
  {
    file: 'clementine.cho',
    notation: 'english',
    title: 'Clementine',
    key: 'Bb',
    chords: ['Bb', 'F', 'F', 'Bb', 'F', 'Bb'],
    transpose: [1, ['B', 'F#', 'F#', 'B', 'F#', 'B'], 'B']
  },
  {
    file: 'danny-boy.cho',
    notation: 'english',
    title: 'Danny Boy',
    key: 'Eb',
    chords: ['Eb', 'Eb7', 'Ab', 'Abm', 'Eb', 'Eb', 'Cm', 'F7', 'Bb7'],
    transpose: [-3, ['C', 'C7', 'F', 'Fm', 'C', 'C', 'Am', 'D7', 'G7'], 'C']
  },
  {
    file: 'swing-low.cho',
    notation: 'english',
    title: 'Swing Low, Sweet Chariot',
    key: 'A',
    chords: ['A', 'D', 'A', 'E7', 'A', 'D', 'A'],
    transpose: [-4, ['F', 'Bb', 'F', 'C7', 'F', 'Bb', 'F'], 'F'],
    sections: ['verse', 'chorus', 'chorus'],
    check: (c) => assert.equal(c.sections[0]?.label, 'Verse 1')
  },
  {
    file: 'oh-susanna.cho',
    notation: 'english',
    title: 'Oh! Susanna',
    key: 'C#',
    chords: ['C#', 'G#7'],
    transpose: [1, ['D', 'A7'], 'D']
  },
  {
    file: 'freude.cho',
    notation: 'german',
    title: 'Ode an die Freude',
    key: 'G-Dur',
    chords: ['G', 'D', 'G', 'G', 'D', 'G', 'D', 'G', 'D', 'D', 'G', 'C', 'D'],
    transpose: [4, ['H', 'Fis'.replace('Fis', 'F#'), 'H', 'H', 'F#', 'H', 'F#', 'H', 'F#', 'F#',
      'H', 'E', 'F#'], 'H-Dur']
  }
]

describe('ChordPro charts: parse and transpose (table of real-world charts)', () => {
  assert.ok(cases.length >= 20)
  for (const c of cases) {
    it(c.file, () => {
      const chart = parseChordPro(read(c.file))
      assert.equal(chart.meta.title, c.title)
      if (c.key !== undefined) assert.equal(chart.meta.key, c.key)
      assert.deepEqual(chartChords(chart), c.chords)
      if (c.sections) assert.deepEqual(chart.sections.map((s) => s.kind), c.sections)
      const [steps, chords, key] = c.transpose
      const moved = transposeChart(chart, steps, c.notation)
      assert.deepEqual(chartChords(moved), chords)
      if (key !== undefined) assert.equal(moved.meta.key, key)
      // The lyrics never change.
      assert.deepEqual(lyricsText(moved), lyricsText(chart))
      c.check?.(chart)
    })
  }
})

describe('ChordPro charts parsed as they are read (the stage view)', () => {
  it('equal the whole parse for every chart of the table, read either way', () => {
    for (const c of cases) {
      const source = read(c.file)
      const eager = parseChordPro(source)
      // Section by section first (the stage view's first screen), then the rest and the meta.
      const lazy = parseChordProLazily(source)
      const first = sectionsOf(lazy)[Symbol.iterator]().next()
      assert.deepEqual(first.done ? undefined : first.value, eager.sections[0], c.file)
      assert.deepEqual([...sectionsOf(lazy)], eager.sections, c.file)
      assert.deepEqual(lazy.meta, eager.meta, c.file)
      assert.deepEqual(JSON.parse(JSON.stringify(lazy)), JSON.parse(JSON.stringify(eager)))
      // The metadata first: the whole chart is parsed for it (a directive may stand anywhere).
      const metaFirst = parseChordProLazily(source)
      assert.deepEqual(metaFirst.meta, eager.meta, c.file)
      assert.deepEqual(metaFirst.sections, eager.sections, c.file)
      assert.deepEqual(transposeChart(metaFirst, 3, c.notation),
        transposeChart(eager, 3, c.notation))
    }
  })

  it('recalls the chorus before it and keeps the key written at the end', () => {
    const source = '{soc: Refrain}\n[G]la\n{eoc}\n{sov}\n[C]verse\n{eov}\n{chorus}\n{key: E}'
    const lazy = parseChordProLazily(source)
    const sections = [...sectionsOf(lazy)]
    assert.deepEqual(sections.map((s) => [s.kind, s.label, s.recall ?? false]),
      [['chorus', 'Refrain', false], ['verse', null, false], ['chorus', 'Refrain', true]])
    assert.deepEqual(sections[2]!.lines, sections[0]!.lines)
    assert.equal(lazy.meta.key, 'E')
  })

  it('makes a section only when it is read, each once', () => {
    let made = 0
    const all = parseChordPro('{sov}\n[G]a\n{eov}\n{sov}\n[C]b\n{eov}\n{sov}\n[D]c\n{eov}')
    const source = [...all.sections]
    const chart = lazyChart(() => all.meta, () => {
      const next = source.shift()
      if (next) made++
      return next
    })
    const first = sectionsOf(chart)[Symbol.iterator]().next()
    assert.equal(first.done ? undefined : first.value, all.sections[0])
    assert.equal(made, 1)
    // A second reader shares what the first made.
    assert.deepEqual([...sectionsOf(chart)].slice(0, 2), all.sections.slice(0, 2))
    assert.equal(made, 3)
    assert.equal(chart.sections.length, 3)
    assert.equal(made, 3)
    assert.deepEqual(chart.sections, all.sections)
  })
})

describe('chords and keys', () => {
  it('transposes single chords in both notations and keeps non-chords', () => {
    assert.equal(transposeChord('F#m7/C#', 1, { notation: 'english' }), 'Gm7/D')
    assert.equal(transposeChord('Bb', 2, { notation: 'english' }), 'C')
    assert.equal(transposeChord('H', 1, { notation: 'german' }), 'C')
    assert.equal(transposeChord('A', 1, { notation: 'german', flats: true }), 'B')
    assert.equal(transposeChord('A', 2, { notation: 'german' }), 'H')
    assert.equal(transposeChord('N.C.', 3, { notation: 'english' }), 'N.C.')
    assert.equal(transposeChord('Chorus', 3, { notation: 'english' }), 'Chorus')
    assert.equal(transposeChord('Bb', 0, { notation: 'german' }), 'Bb')
  })

  it('moves key labels as the band writes them', () => {
    assert.equal(transposeKey('C-Dur', 2, 'german'), 'D-Dur')
    assert.equal(transposeKey('a-Moll', 2, 'german'), 'h-Moll')
    assert.equal(transposeKey('Es-Dur', 1, 'german'), 'E-Dur')
    assert.equal(transposeKey('Fis-Dur', -1, 'german'), 'F-Dur')
    assert.equal(transposeKey('B', 1, 'english'), 'C')
    assert.equal(transposeKey('B', 1, 'german'), 'H')
    assert.equal(transposeKey('Bb', 2, 'english'), 'C')
    assert.equal(transposeKey('Am', -2, 'english'), 'Gm')
    assert.equal(transposeKey('Lydian', 2, 'english'), 'Lydian')
  })
})
