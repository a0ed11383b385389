import { test } from 'node:test'
import assert from 'node:assert/strict'
import { anonymous, createTestApp, json, userClient, type Ok } from '#test/helpers.js'
import { parseChordPro } from '#shared/chords/index.js'

type Converted = Ok<'/charts/convert', 'post'>

// Shaped like a tab site's page: headings, chords above words, a tab, a tab character.
const pasted = [
  'Greensleeves - Traditional',
  '',
  '[Intro]',
  'e|-----0---1---|',
  'B|---1---------|',
  '',
  'Verse 1:',
  'Am      C               G',
  'Alas my love, you do me wrong',
  'Am         E',
  'To cast me off',
  '',
  '[Chorus]',
  'C            G   |   Am E',
  'Greensleeves was all my joy',
  'F\tG',
  '',
  'Am F G Away'
].join('\r\n')

test('POST /charts/convert turns chords over lyrics into ChordPro with warnings', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const member = await userClient(ctx.app, 'mia')
  const res = await member.post('/charts/convert', { text: pasted, notation: 'english' })
  assert.equal(res.statusCode, 200, res.body)
  const { chart, warnings } = json<Converted>(res)
  assert.equal(chart, [
    'Greensleeves - Traditional',
    '',
    '{start_of_tab: Intro}',
    'e|-----0---1---|',
    'B|---1---------|',
    '{end_of_tab}',
    '',
    '{start_of_verse: Verse 1}',
    '[Am]Alas my [C]love, you do me [G]wrong',
    '[Am]To cast me [E]off',
    '{end_of_verse}',
    '',
    '{start_of_chorus: Chorus}',
    '[C]Greensleeves [G]was [*|]all [Am]my [E]joy',
    '[F]        [G]',
    '{end_of_chorus}',
    '',
    'Am F G Away'
  ].join('\n'))
  assert.deepEqual(warnings.map((w) => [w.line, w.code]),
    [[16, 'tab_characters'], [18, 'not_a_chord']])
  // What it makes is ChordPro the reader takes: sections, a tab, chords.
  const parsed = parseChordPro(chart)
  assert.deepEqual(parsed.sections.map((s) => [s.kind, s.label]), [
    ['plain', null], ['tab', 'Intro'], ['verse', 'Verse 1'], ['chorus', 'Chorus'], ['plain', null]
  ])

  // The band's notation by default (German here): "H7" is a chord.
  const german = json<Converted>(
    await member.post('/charts/convert', { text: 'D   H7\nKein Land' }))
  assert.equal(german.chart, '[D]Kein[H7] Land')
  assert.deepEqual(german.warnings, [])

  const cho = '{title: X}\n[G]Already ChordPro'
  const same = json<Converted>(await member.post('/charts/convert', { text: cho }))
  assert.equal(same.chart, cho)
  assert.deepEqual(same.warnings.map((w) => w.code), ['already_chordpro'])
  const words = json<Converted>(await member.post('/charts/convert', { text: 'only\nwords' }))
  assert.deepEqual([words.chart, words.warnings[0]?.code], ['only\nwords', 'no_chord_lines'])
})

test('POST /charts/convert: 401 without a session, 400 for bad bodies', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  assert.equal((await anonymous(ctx.app).post('/charts/convert', { text: 'C\nla' })).statusCode,
    401)
  const member = await userClient(ctx.app, 'mia')
  for (const body of [{}, { text: 'x'.repeat(64 * 1024 + 1) }, { text: 'C', notation: 'dutch' },
    { text: 'C', extra: 1 }]) {
    const res = await member.post('/charts/convert', body)
    assert.equal(res.statusCode, 400, res.body)
    assert.equal(json<{ code: string }>(res).code, 'VALIDATION_ERROR')
  }
})
