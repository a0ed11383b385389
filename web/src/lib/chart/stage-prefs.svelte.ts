// The stage view's personal settings: kept in this browser (localStorage), never on the server —
// the singer's phone shows lyrics only, the guitarist's is transposed for the capo.

const KEY = 'bandstand.stage'
const IDLE = typeof requestIdleCallback === 'function'
export const TEXT_SIZES = [0.8, 0.9, 1, 1.15, 1.3, 1.5, 1.75, 2] as const
const DEFAULT_SIZE = 2
/** The songs a phone remembers preferring the sheet for (the most recent kept). */
export const MAX_SHEET_SONGS = 500

interface Stored {
  size: number
  chords: boolean
  transpose: number
  /** With a capo, chords in the shapes played (true) or as they sound; null: by instrument. */
  shapes: boolean | null
  /** Songs with a chart and a sheet PDF for which this phone shows the sheet. */
  sheetSongs: number[]
  /** Sheets light on dark (inverted) as the stage's theme is; off: as printed. */
  darkSheets: boolean
}

const songIds = (raw: unknown): number[] =>
  Array.isArray(raw)
    ? raw.filter((id): id is number => Number.isInteger(id) && id > 0).slice(-MAX_SHEET_SONGS)
    : []

function load (): Stored {
  const fallback = {
    size: DEFAULT_SIZE, chords: true, transpose: 0, shapes: null, sheetSongs: [], darkSheets: true
  }
  try {
    const raw = JSON.parse(localStorage.getItem(KEY) ?? 'null') as Partial<Stored> | null
    if (!raw || typeof raw !== 'object') return fallback
    const size = Number.isInteger(raw.size) ? Math.min(Math.max(raw.size!, 0), 7) : DEFAULT_SIZE
    const transpose = Number.isInteger(raw.transpose) ? clampTranspose(raw.transpose!) : 0
    const shapes = typeof raw.shapes === 'boolean' ? raw.shapes : null
    return {
      size,
      chords: raw.chords !== false,
      transpose,
      shapes,
      sheetSongs: songIds(raw.sheetSongs),
      darkSheets: raw.darkSheets !== false
    }
  } catch {
    return fallback
  }
}

/** −11…11, wrapping: twelve semitones up is where one started. */
const clampTranspose = (n: number) => ((((n + 11) % 23) + 23) % 23) - 11

export class StagePrefs {
  #stored = $state(load())

  get size () { return this.#stored.size }
  get scale () { return TEXT_SIZES[this.#stored.size] ?? 1 }
  get chords () { return this.#stored.chords }
  get transpose () { return this.#stored.transpose }
  get shapes () { return this.#stored.shapes }
  get canGrow () { return this.#stored.size < TEXT_SIZES.length - 1 }
  get canShrink () { return this.#stored.size > 0 }
  get darkSheets () { return this.#stored.darkSheets }
  prefersSheet (songId: number): boolean { return this.#stored.sheetSongs.includes(songId) }

  grow (): void { this.#set({ size: Math.min(this.#stored.size + 1, TEXT_SIZES.length - 1) }) }
  shrink (): void { this.#set({ size: Math.max(this.#stored.size - 1, 0) }) }
  toggleChords (): void { this.#set({ chords: !this.#stored.chords }) }
  setShapes (shapes: boolean): void { this.#set({ shapes }) }
  toggleDarkSheets (): void { this.#set({ darkSheets: !this.#stored.darkSheets }) }
  /** The sheet instead of the chart for this song (or the chart again). */
  preferSheet (songId: number, sheet: boolean): void {
    const others = this.#stored.sheetSongs.filter((id) => id !== songId)
    this.#set({ sheetSongs: sheet ? [...others, songId].slice(-MAX_SHEET_SONGS) : others })
  }

  transposeBy (step: number): void {
    this.#set({ transpose: Math.max(-11, Math.min(11, this.#stored.transpose + step)) })
  }

  #saving = 0

  #set (patch: Partial<Stored>): void {
    this.#stored = { ...this.#stored, ...patch }
    // Written when the browser is idle, after the change is on screen (a transposition's click);
    // a page closed before that writes it as it goes. Not from an animation frame callback:
    // asking for one in the click made the browser run its next frame before the task after the
    // click, inside what the bench times (bench/stage-charts-trace.ts).
    if (this.#saving) return
    this.#saving = IDLE
      ? requestIdleCallback(this.#save, { timeout: 100 })
      : Number(setTimeout(this.#save, 16))
    addEventListener('pagehide', this.#save)
  }

  #save = (): void => {
    if (IDLE) cancelIdleCallback(this.#saving)
    else clearTimeout(this.#saving)
    this.#saving = 0
    removeEventListener('pagehide', this.#save)
    try {
      localStorage.setItem(KEY, JSON.stringify(this.#stored))
    } catch {
      // Private mode or a full storage: the setting holds until the page closes.
    }
  }
}
