import assert from 'node:assert/strict'
import {
  assembleGigDocument,
  type DocumentContext,
  type DocumentGig,
  type DocumentSong,
  type GigDocument,
  type RawEntry,
  type RawSet
} from '#src/documents/gig-document.js'
import { DEFAULT_APP_CONFIG } from '#schemas/app-config.js'
import { prepareLogo } from '#src/documents/logo.js'

// Gig documents built in memory for the renderer tests and the benchmark.

export const TIMING = DEFAULT_APP_CONFIG.timing

export const gigFixture = (overrides: Partial<DocumentGig> = {}): DocumentGig => ({
  id: 7,
  name: 'Hochzeit Müller & Söhne',
  date: '2026-06-13',
  kind: 'Hochzeit',
  status: 'confirmed',
  venueName: 'Schloss Weißenstein',
  venueAddress: 'Schloßstraße 1',
  venueCity: 'Großheubach',
  organizerName: 'Jürgen Müller',
  organizerContact: '+49 170 1234567',
  getInTime: '16:00',
  soundcheckTime: '17:30',
  doorsTime: '19:00',
  startTime: '20:00',
  endTime: '01:00',
  notes: 'Brautpaar-Tanz nach dem 2. Set; Strom über die Bühne links.',
  ...overrides
})

export const songFixture = (id: number, overrides: Partial<DocumentSong> = {}): DocumentSong => ({
  id,
  title: `Song ${id}`,
  artist: 'Interpret',
  key: 'C',
  leadSinger: ['Anna', 'Björn', 'Carla'][id % 3]!,
  durationSeconds: 180 + (id % 7) * 20,
  composers: ['Lennon, John', 'McCartney, Paul'],
  lyricists: ['Lennon, John'],
  arrangers: [],
  publisher: 'Sony/ATV',
  gemaWorkNumber: String(1000000 + id),
  isOriginal: false,
  ...overrides
})

/** A gig with `setCount` sets of `perSet` songs each. */
export function bigGig (setCount = 4, perSet = 15, gig: Partial<DocumentGig> = {}): GigDocument {
  const sets: RawSet[] = []
  const entries: RawEntry[] = []
  let id = 0
  for (let s = 0; s < setCount; s++) {
    sets.push({ id: s + 1, name: `Set ${s + 1}`, breakAfterSeconds: null })
    for (let e = 0; e < perSet; e++) {
      id++
      const song = songFixture(
        id,
        id % 10 === 0
          ? {
              title:
                'Ein sehr, sehr langer Titel über Grüße, Straßen und Übermut Nummer ' +
                `${id} – Extended Version`
            }
          : {}
      )
      entries.push({
        id,
        setId: s + 1,
        songId: id,
        song,
        notes: null,
        durationSeconds: null,
        status: 'planned',
        inserted: false,
        rating: null
      })
    }
  }
  return assembleGigDocument(
    { gig: gigFixture(gig), sets, entries, schedule: [], musicianCount: 5 },
    TIMING
  )
}

export const contextFixture = (overrides: Partial<DocumentContext> = {}): DocumentContext => ({
  bandName: 'Die Blechbläser',
  timezone: 'Europe/Berlin',
  locale: 'de-DE',
  generatedAt: new Date('2026-06-01T10:00:00Z'),
  logo: null,
  ...overrides
})

/** The logo as documents get it: prepared once, as at upload. */
export function documentLogo (png: Buffer) {
  const prepared = prepareLogo(png)
  assert.ok(prepared.ok, 'the test logo is accepted')
  return { accent: prepared.accent, watermark: prepared.watermark }
}
