import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { gigKeyChoice, keyLine, playedKeyFacts, playedKeyLabel } from './key-label'
import { i18n, loadLanguage } from './i18n/index.svelte'

beforeAll(() => loadLanguage('de'))
afterEach(() => {
  i18n.language = 'en'
})

describe('the key as a gig plays it', () => {
  it('moves the song key by the entry\'s transposition, in the reader\'s words', () => {
    expect(playedKeyLabel('D', 2)).toBe('E major')
    expect(playedKeyLabel('Bm', 2, 'short')).toBe('C♯m')
    expect(playedKeyLabel('X7', 2)).toBe('X7')
    expect(playedKeyLabel(null, 2)).toBe('')
    i18n.language = 'de'
    expect(playedKeyLabel('A', 2)).toBe('H-Dur')
  })

  it('names each choice of Key for this gig by the key it will sound in', () => {
    expect(gigKeyChoice('D', 2)).toBe('E major (+2)')
    expect(gigKeyChoice('D', -3)).toBe('B major (−3)')
    expect(gigKeyChoice('D', 0)).toBe('D major')
    expect(gigKeyChoice(null, 0)).toBe('As written')
    expect(gigKeyChoice('X7', 5)).toBe('+5')
    i18n.language = 'de'
    expect(gigKeyChoice('D', -3)).toBe('H-Dur (−3)')
  })

  it('says what a capo sounds in and the shapes played', () => {
    expect(keyLine('G', 2, 2)).toBe('Sounds in A · Capo 2 · G shapes')
    expect(keyLine('Em', 0, 3)).toBe('Sounds in Em · Capo 3 · C♯m shapes')
    expect(keyLine('G', 2, null)).toBe('Key A major')
    expect(keyLine('X7', 0, 2)).toBe('X7 · Capo 2')
    expect(keyLine(null, 0, 2)).toBe('Capo 2')
    expect(keyLine(null, 0, 0)).toBe('')
    i18n.language = 'de'
    expect(keyLine('G', 2, 2)).toBe('Klingt in A-Dur · Kapo 2 · Griffe G-Dur')
  })

  it('writes a setlist row: key as played, capo, singer', () => {
    expect(playedKeyFacts('D', 2, 2, 'Lena')).toBe('E · Capo 2 · Lena')
    expect(playedKeyFacts(null, 0, null, null)).toBe('')
  })
})
