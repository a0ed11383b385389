// The words the documents print for codes the API sends (one language per screen). A
// band's locale picks the language; anything but German is English, as in the web app.

export type DocumentLanguage = 'de' | 'en'

/** `de-DE`, `de-AT`, `de` → German; every other locale (and none) → English. */
export const documentLanguage = (locale: string | undefined): DocumentLanguage =>
  locale?.toLowerCase().startsWith('de') ? 'de' : 'en'

export interface RunningOrderLabels {
  getIn: string
  soundcheck: string
  doors: string
  start: string
  end: string
  band: string
  set: (name: string, songs: number, length: string) => string
  pause: (length: string) => string
  head: [string, string, string, string, string]
  empty: string
}

export const RUNNING_ORDER_LABELS: Record<DocumentLanguage, RunningOrderLabels> = {
  de: {
    getIn: 'Get-in / Aufbau',
    soundcheck: 'Soundcheck',
    doors: 'Einlass',
    start: 'Beginn',
    end: 'Ende',
    band: 'Band',
    set: (name, songs, length) => `${name} (${songs} Titel, ${length})`,
    pause: (length) => `Pause (${length})`,
    head: ['Zeit', 'Programmpunkt', 'Wer', 'Wo', 'Notizen'],
    empty: 'Noch kein Ablauf eingetragen.'
  },
  en: {
    getIn: 'Get-in',
    soundcheck: 'Soundcheck',
    doors: 'Doors',
    start: 'Start',
    end: 'End',
    band: 'Band',
    set: (name, songs, length) => `${name} (${songs} ${songs === 1 ? 'song' : 'songs'}, ${length})`,
    pause: (length) => `Break (${length})`,
    head: ['Time', 'What', 'Who', 'Where', 'Notes'],
    empty: 'No running order yet.'
  }
}

/** The songbook's words around the charts (the charts themselves are the band's own text). */
export interface SongbookLabels {
  song: (position: number) => string
  key: (key: string) => string
  transposed: (steps: string) => string
  capo: (fret: number) => string
  vocals: (singer: string) => string
  chorus: string
  noChart: string
  empty: string
  page: (page: number, pages: number) => string
}

export const SONGBOOK_LABELS: Record<DocumentLanguage, SongbookLabels> = {
  de: {
    song: (position) => `${position}. Titel`,
    key: (key) => `Tonart ${key}`,
    transposed: (steps) => `transponiert ${steps}`,
    capo: (fret) => `Kapo ${fret}`,
    vocals: (singer) => `Gesang: ${singer}`,
    chorus: 'Refrain',
    noChart: 'Kein Chart hinterlegt.',
    empty: 'Die Setlist ist leer.',
    page: (page, pages) => `Seite ${page} / ${pages}`
  },
  en: {
    song: (position) => `Song ${position}`,
    key: (key) => `Key ${key}`,
    transposed: (steps) => `transposed ${steps}`,
    capo: (fret) => `Capo ${fret}`,
    vocals: (singer) => `Vocals: ${singer}`,
    chorus: 'Chorus',
    noChart: 'No chart yet.',
    empty: 'The setlist is empty.',
    page: (page, pages) => `Page ${page} / ${pages}`
  }
}
