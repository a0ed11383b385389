import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

// The stage's per-phone settings for sheets: kept per song, read back after a reload, and a
// garbled stored value never breaks the stage.
const stored = new Map<string, string>()

beforeEach(() => {
  stored.clear()
  vi.stubGlobal('localStorage', {
    getItem: (key: string) => stored.get(key) ?? null,
    setItem: (key: string, value: string) => {
      stored.set(key, value)
    }
  })
  vi.stubGlobal('addEventListener', () => {})
  vi.stubGlobal('removeEventListener', () => {})
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

const { MAX_SHEET_SONGS, StagePrefs } = await import('./stage-prefs.svelte')

describe('StagePrefs: sheets', () => {
  it('prefers the sheet per song and keeps it for the next page', () => {
    const prefs = new StagePrefs()
    expect(prefs.prefersSheet(7)).toBe(false)
    expect(prefs.darkSheets).toBe(true)
    prefs.preferSheet(7, true)
    prefs.preferSheet(9, true)
    prefs.preferSheet(9, false)
    prefs.toggleDarkSheets()
    expect(prefs.prefersSheet(7)).toBe(true)
    expect(prefs.prefersSheet(9)).toBe(false)
    vi.runAllTimers()
    const again = new StagePrefs()
    expect(again.prefersSheet(7)).toBe(true)
    expect(again.darkSheets).toBe(false)
  })

  it('keeps the most recent songs only, and reads a garbled value as none', () => {
    stored.set('bandstand.stage', JSON.stringify({
      sheetSongs: [...Array.from({ length: MAX_SHEET_SONGS }, (_, i) => i + 1), 'x', -3, 2.5],
      darkSheets: 'yes'
    }))
    const prefs = new StagePrefs()
    expect(prefs.prefersSheet(1)).toBe(true)
    prefs.preferSheet(MAX_SHEET_SONGS + 1, true)
    expect(prefs.prefersSheet(1)).toBe(false)
    expect(prefs.prefersSheet(MAX_SHEET_SONGS + 1)).toBe(true)
    expect(prefs.darkSheets).toBe(true)
    stored.set('bandstand.stage', JSON.stringify({ sheetSongs: 'all' }))
    expect(new StagePrefs().prefersSheet(1)).toBe(false)
  })
})
