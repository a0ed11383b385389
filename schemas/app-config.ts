import { Type, type Static } from '@sinclair/typebox'
import { LiteralUnion, StrictObject, TimeString } from './common.js'
import { CHORD_NOTATIONS } from '#src/shared/chords/chord.js'

const Label = Type.String({ minLength: 1, maxLength: 60 })
const LabelList = Type.Array(Label, { minItems: 1, maxItems: 100, uniqueItems: true })

export const TimingConfig = StrictObject({
  defaultSongSeconds: Type.Integer({ minimum: 1, maximum: 7200 }),
  songGapSeconds: Type.Integer({ minimum: 0, maximum: 600 }),
  setBreakSeconds: Type.Integer({ minimum: 0, maximum: 7200 }),
  defaultStartTime: TimeString
})
export type TimingConfigType = Static<typeof TimingConfig>

export const ChordNotation = LiteralUnion(CHORD_NOTATIONS, {
  description:
    'how the band writes chords in charts: english (B, Bb) or german (H = B, B = Bb); ' +
    'default german, as the default key list'
})

/** What an admin can set: stored in the database, validated, effective at once. */
export const EditableAppConfig = StrictObject({
  appName: Type.String({ minLength: 1, maxLength: 80 }),
  bandName: Type.String({ minLength: 1, maxLength: 120 }),
  timezone: Type.String({
    minLength: 1,
    maxLength: 64,
    description: 'IANA timezone, e.g. Europe/Berlin'
  }),
  locale: Type.String({ pattern: '^[a-z]{2,3}(-[A-Z]{2})?$', examples: ['de-DE'] }),
  genres: LabelList,
  gigKinds: LabelList,
  keys: LabelList,
  chordNotation: Type.Optional(ChordNotation),
  timing: TimingConfig,
  features: StrictObject({ calendar: Type.Boolean() })
})
export type EditableAppConfigType = Static<typeof EditableAppConfig>

/** The public document: nothing secret, no path, no internal setting. */
export const PublicAppConfig = Type.Object({
  appName: Type.String(),
  bandName: Type.String(),
  version: Type.String(),
  timezone: Type.String(),
  locale: Type.String(),
  genres: Type.Array(Type.String()),
  gigKinds: Type.Array(Type.String()),
  gigStatuses: Type.Array(Type.String()),
  songStatuses: Type.Array(Type.String()),
  keys: Type.Array(Type.String()),
  chordNotation: ChordNotation,
  timing: TimingConfig,
  features: Type.Object({ docs: Type.Boolean(), calendar: Type.Boolean() }),
  hasLogo: Type.Boolean()
})
export type PublicAppConfigType = Static<typeof PublicAppConfig>

// German band defaults; keys use German note names (H = B natural, B = B flat).
const naturals = [
  'C',
  'Cis',
  'Des',
  'D',
  'Dis',
  'Es',
  'E',
  'F',
  'Fis',
  'Ges',
  'G',
  'Gis',
  'As',
  'A',
  'Ais',
  'B',
  'H'
]
export const DEFAULT_APP_CONFIG: EditableAppConfigType = {
  appName: 'Bandstand',
  bandName: 'Unsere Band',
  timezone: 'Europe/Berlin',
  locale: 'de-DE',
  genres: [
    'Pop',
    'Rock',
    'Schlager',
    'Jazz',
    'Swing',
    'Soul',
    'Funk',
    'Blues',
    'Country',
    'Volksmusik',
    'Latin',
    'Disco',
    'Ballade',
    'Eigenes'
  ],
  gigKinds: [
    'Hochzeit',
    'Geburtstag',
    'Firmenfeier',
    'Stadtfest',
    'Club',
    'Festival',
    'Gala',
    'Sonstiges'
  ],
  keys: [...naturals.map((n) => `${n}-Dur`), ...naturals.map((n) => `${n.toLowerCase()}-Moll`)],
  chordNotation: 'german',
  timing: {
    defaultSongSeconds: 240,
    songGapSeconds: 30,
    setBreakSeconds: 600,
    defaultStartTime: '20:00'
  },
  features: { calendar: true }
}

export const LogoInfo = Type.Object({
  mimeType: Type.Union([Type.Literal('image/png'), Type.Literal('image/jpeg')]),
  bytes: Type.Integer(),
  etag: Type.String(),
  updatedAt: Type.String({ format: 'date-time' })
})
export type LogoInfoType = Static<typeof LogoInfo>

const Colour = Type.String({ pattern: '^#[0-9a-f]{6}$', examples: ['#37474f'] })

/** The colours the generated documents use (src/services/palette.ts), for the admin's preview. */
export const DocumentPaletteSchema = Type.Object({
  accent: Type.String({ ...Colour, description: 'bars and table heads' }),
  onAccent: Type.String({ ...Colour, description: 'text on the accent' }),
  accentText: Type.String({ ...Colour, description: 'the accent as text on the page' }),
  tint: Type.String({ ...Colour, description: 'zebra rows and boxes' }),
  text: Colour,
  mutedText: Colour,
  textOnTint: Colour,
  background: Colour,
  source: Type.Union([Type.Literal('logo'), Type.Literal('neutral')], {
    description: 'logo: taken from the logo (PNG); neutral: no logo, a JPEG or a greyscale logo'
  })
})
