// The words the documents print for codes the API sends (one language per screen). A
// band's locale picks the language; anything but German is English, as in the web app.

import type { EntryStatus, GigStatus } from '#shared/enums.js'

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
  /** With a capo: the key heard, the fret and the shapes the chords are printed in. */
  soundsCapo: (key: string, fret: number, shapes: string) => string
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
    soundsCapo: (key, fret, shapes) => `Klingt in ${key} · Kapo ${fret} · Griffe ${shapes}`,
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
    soundsCapo: (key, fret, shapes) => `Sounds in ${key} · Capo ${fret} · ${shapes} shapes`,
    vocals: (singer) => `Vocals: ${singer}`,
    chorus: 'Chorus',
    noChart: 'No chart yet.',
    empty: 'The setlist is empty.',
    page: (page, pages) => `Page ${page} / ${pages}`
  }
}

/** A gig's status as every document prints it (schedule PDF, calendar feed). */
export const STATUS_LABELS: Record<DocumentLanguage, Record<GigStatus, string>> = {
  de: { inquiry: 'Anfrage', confirmed: 'Bestätigt', declined: 'Abgelehnt', cancelled: 'Abgesagt' },
  en: { inquiry: 'Inquiry', confirmed: 'Confirmed', declined: 'Declined', cancelled: 'Cancelled' }
}

/**
 * The calendar feed's words (event titles, categories, descriptions). Its time words are the
 * schedule sheet's (`SCHEDULE_LABELS.fields`), its status words `STATUS_LABELS`.
 */
export interface CalendarLabels {
  /** X-WR-CALNAME, the subscribed calendar's name in the app. */
  name: (band: string) => string
  /** A gig still asked for: its title carries the mark. */
  inquiry: (name: string) => string
  rehearsal: string
  /** The last field of PRODID (RFC 5545: a formal public identifier ends in its language). */
  prodIdLanguage: string
}

export const CALENDAR_LABELS: Record<DocumentLanguage, CalendarLabels> = {
  de: {
    name: (band) => `${band} – Termine`,
    inquiry: (name) => `${name} (Anfrage)`,
    rehearsal: 'Probe',
    prodIdLanguage: 'DE'
  },
  en: {
    name: (band) => `${band} – Schedule`,
    inquiry: (name) => `${name} (Inquiry)`,
    rehearsal: 'Rehearsal',
    prodIdLanguage: 'EN'
  }
}

/**
 * The setlist's words around the songs, in the PDF and the plain text (titles, sets and notes are
 * the band's own text).
 */
export interface SetlistLabels {
  /** The header's start: the gig's time, else the computed one marked as planned. */
  start: (time: string, planned: boolean) => string
  legend: string
  inserted: string
  skipped: string
  empty: string
  emptySet: string
  songs: (count: number) => string
  pause: (length: string, from: string, to: string) => string
  /** The PDF spaces its parts wider than the plain text (`separator`). */
  total: (
    length: string,
    from: string,
    to: string,
    songs: number,
    sets: number,
    separator?: string
  ) => string
  page: (page: number, pages: number) => string
  /** The line under a repertoire setlist's title (no date, no venue). */
  repertoire: (sets: number, length: string) => string
}

export const SETLIST_LABELS: Record<DocumentLanguage, SetlistLabels> = {
  de: {
    start: (time, planned) => `Beginn ${time}${planned ? ' (geplant)' : ''}`,
    legend:
      'Live-Protokoll: durchgestrichen = ausgelassen, + eingefügt = während der ' +
      'Show ergänzt, ●●● = Bewertung',
    inserted: '+ eingefügt',
    skipped: '(ausgelassen)',
    empty: 'Noch keine Setlist.',
    emptySet: '(leer)',
    songs: (count) => `${count} Titel`,
    pause: (length, from, to) => `Pause ${length}  (${from}–${to})`,
    total: (length, from, to, songs, sets, separator = '  ·  ') =>
      `Gesamt: ${length}${separator}${from}–${to}${separator}${songs} Titel in ${sets} ` +
      `${sets === 1 ? 'Set' : 'Sets'}`,
    page: (page, pages) => `Seite ${page} von ${pages}`,
    repertoire: (sets, length) =>
      `Repertoire-Setlist · ${sets} ${sets === 1 ? 'Set' : 'Sets'} · ${length} (Zeiten ab Beginn)`
  },
  en: {
    start: (time, planned) => `Start ${time}${planned ? ' (planned)' : ''}`,
    legend:
      'Live record: struck through = skipped, + added = added during the show, ●●● = rating',
    inserted: '+ added',
    skipped: '(skipped)',
    empty: 'No setlist yet.',
    emptySet: '(empty)',
    songs: (count) => `${count} ${count === 1 ? 'song' : 'songs'}`,
    pause: (length, from, to) => `Break ${length}  (${from}–${to})`,
    total: (length, from, to, songs, sets, separator = '  ·  ') =>
      `Total: ${length}${separator}${from}–${to}${separator}${songs} ` +
      `${songs === 1 ? 'song' : 'songs'} in ${sets} ${sets === 1 ? 'set' : 'sets'}`,
    page: (page, pages) => `Page ${page} of ${pages}`,
    repertoire: (sets, length) =>
      `Repertoire setlist · ${sets} ${sets === 1 ? 'set' : 'sets'} · ${length} ` +
      '(times from the start)'
  }
}

/**
 * The setlist CSV's header row and the words of its status columns (column order fixed; the cells
 * are the band's data). A spreadsheet's columns named in the band's language.
 */
export interface SetlistCsvLabels {
  header: [
    string, string, string, string, string, string, string, string,
    string, string, string, string, string, string, string
  ]
  status: Record<EntryStatus, string>
  /** The "inserted during the show" column's yes. */
  yes: string
}

export const SETLIST_CSV_LABELS: Record<DocumentLanguage, SetlistCsvLabels> = {
  de: {
    header: [
      'Set', 'Nr.', 'Beginn', 'Titel', 'Interpret', 'Tonart', 'Gesang', 'Dauer', 'Notizen',
      'Status', 'Eingefügt', 'Bewertung', 'Transponierung', 'Kapo', 'Chart'
    ],
    status: { planned: 'geplant', played: 'gespielt', skipped: 'ausgelassen' },
    yes: 'ja'
  },
  en: {
    header: [
      'Set', 'No.', 'Start', 'Title', 'Artist', 'Key', 'Vocals', 'Length', 'Notes',
      'Status', 'Added', 'Rating', 'Transpose', 'Capo', 'Chart'
    ],
    status: { planned: 'planned', played: 'played', skipped: 'skipped' },
    yes: 'yes'
  }
}

/** The running-order sheet's frame: title, headings, master data, footer. */
export interface ScheduleLabels {
  title: string
  details: string
  runningOrder: string
  /** The master data's row labels, in print order. */
  fields: {
    date: string
    kind: string
    status: string
    organizer: string
    contact: string
    venue: string
    address: string
    getIn: string
    soundcheck: string
    doors: string
    start: string
    end: string
    notes: string
    fee: string
  }
  generated: (at: string, timezone: string, band: string) => string
  page: (page: number, pages: number) => string
}

export const SCHEDULE_LABELS: Record<DocumentLanguage, ScheduleLabels> = {
  de: {
    title: 'Ablaufplan',
    details: 'Stammdaten',
    runningOrder: 'Ablauf',
    fields: {
      date: 'Datum',
      kind: 'Art',
      status: 'Status',
      organizer: 'Veranstalter',
      contact: 'Kontakt',
      venue: 'Location',
      address: 'Adresse',
      getIn: 'Get-in',
      soundcheck: 'Soundcheck',
      doors: 'Einlass',
      start: 'Beginn',
      end: 'Ende',
      notes: 'Notizen',
      fee: 'Gage'
    },
    generated: (at, timezone, band) => `Erstellt ${at} (${timezone}) · ${band}`,
    page: (page, pages) => `Seite ${page} von ${pages}`
  },
  en: {
    title: 'Running order',
    details: 'Details',
    runningOrder: 'Timeline',
    fields: {
      date: 'Date',
      kind: 'Kind',
      status: 'Status',
      organizer: 'Organizer',
      contact: 'Contact',
      venue: 'Venue',
      address: 'Address',
      getIn: 'Get-in',
      soundcheck: 'Soundcheck',
      doors: 'Doors',
      start: 'Start',
      end: 'End',
      notes: 'Notes',
      fee: 'Fee'
    },
    generated: (at, timezone, band) => `Generated ${at} (${timezone}) · ${band}`,
    page: (page, pages) => `Page ${page} of ${pages}`
  }
}

/**
 * The first word of a document's file name (then date and gig). The GEMA workbook has none here:
 * GEMA is the German collecting society and its report is German for every band.
 */
export const FILE_PREFIXES: Record<
  DocumentLanguage,
  { setlist: string; stage: string; schedule: string }
> = {
  de: { setlist: 'Setlist', stage: 'Setlist-Buehne', schedule: 'Ablaufplan' },
  en: { setlist: 'Setlist', stage: 'Setlist-stage', schedule: 'Running-order' }
}
