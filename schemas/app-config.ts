import { Type, type Static } from '@sinclair/typebox'
import { LiteralUnion, StrictObject, StringEnum, TimeString } from './common.js'
import { CHORD_NOTATIONS } from '#shared/chords/chord.js'
import { APP_CONFIG_LIMITS } from '#shared/limits.js'

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
    'default german, as older installations'
})

export const MONEY_VISIBILITY = ['nothing', 'own', 'everything'] as const

export const MoneyConfig = StrictObject({
  currency: Type.String({
    pattern: '^[A-Z]{3}$',
    description: 'ISO 4217 code of every amount (EUR, GBP, CHF)'
  }),
  membersSee: LiteralUnion(MONEY_VISIBILITY, {
    description: "what members see of a gig's money: nothing, their own share with the gig's " +
      'totals (own), or everything (everything); editors and admins see everything'
  })
}, { description: 'left out: EUR, and members see their own share' })
export type MoneyConfigType = Static<typeof MoneyConfig>
export const DEFAULT_MONEY_CONFIG: MoneyConfigType = { currency: 'EUR', membersSee: 'own' }
/** When members should have answered, and when the mails remind them. */
export const AnswerSettings = StrictObject(
  {
    gigDays: Type.Integer({
      minimum: 0, maximum: 365, description: 'a gig\'s default answer deadline, days before it'
    }),
    rehearsalDays: Type.Integer({
      minimum: 0, maximum: 365, description: 'a rehearsal\'s default answer deadline, days before'
    }),
    reminderDays: Type.Integer({
      minimum: 0,
      maximum: 60,
      description: 'the first reminder, days before the deadline (another on the day itself)'
    })
  },
  { description: 'left out: kept as it is (defaults 14, 3 and 3)' }
)
export type AnswerSettingsType = Static<typeof AnswerSettings>
export const DEFAULT_ANSWER_SETTINGS: AnswerSettingsType = {
  gigDays: 14,
  rehearsalDays: 3,
  reminderDays: 3
}

/** What an admin can set: stored in the database, validated, effective at once. */
export const EditableAppConfig = StrictObject({
  appName: Type.String({ minLength: 1, maxLength: APP_CONFIG_LIMITS.appName }),
  bandName: Type.String({ minLength: 1, maxLength: APP_CONFIG_LIMITS.bandName }),
  timezone: Type.String({
    minLength: 1,
    maxLength: APP_CONFIG_LIMITS.timezone,
    description: 'IANA timezone, e.g. Europe/Berlin'
  }),
  locale: Type.String({ pattern: '^[a-z]{2,3}(-[A-Z]{2})?$', examples: ['de-DE'] }),
  genres: LabelList,
  gigKinds: LabelList,
  chordNotation: Type.Optional(ChordNotation),
  timing: TimingConfig,
  features: StrictObject({
    calendar: Type.Boolean(),
    memberSongFiles: Type.Optional(Type.Boolean({
      description: 'members (not only editors) may add files to songs (default false)'
    }))
  }),
  money: Type.Optional(MoneyConfig),
  answers: Type.Optional(AnswerSettings),
  setup: Type.Optional(
    StrictObject(
      {
        localeChosen: Type.Boolean({
          description: 'false on a fresh install until an admin saves the settings'
        }),
        checklistDismissed: Type.Boolean()
      },
      { description: 'left out: kept as it is (the language counts as chosen once saved)' }
    )
  )
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
  localeChosen: Type.Boolean({
    description: 'false until an admin saved the settings: clients follow the browser language'
  }),
  gigStatuses: Type.Array(Type.String()),
  songStatuses: Type.Array(Type.String()),
  keys: Type.Array(Type.String(), {
    description: 'every key a song may have, canonical ("Bb", "Gm"; docs/keys.md)'
  }),
  chordNotation: ChordNotation,
  timing: TimingConfig,
  features: Type.Object({
    docs: Type.Boolean(),
    calendar: Type.Boolean(),
    memberSongFiles: Type.Boolean()
  }),
  money: MoneyConfig,
  hasLogo: Type.Boolean()
})
export type PublicAppConfigType = Static<typeof PublicAppConfig>

// German band defaults.
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
  chordNotation: 'german',
  timing: {
    defaultSongSeconds: 240,
    songGapSeconds: 30,
    setBreakSeconds: 600,
    defaultStartTime: '20:00'
  },
  features: { calendar: true },
  // Installations older than the setup checklist chose long ago.
  setup: { localeChosen: true, checklistDismissed: true }
}

/** The built-in lists in English, for a band that starts in English. */
const ENGLISH_LISTS = {
  genres: [
    'Pop',
    'Rock',
    'Jazz',
    'Swing',
    'Soul',
    'Funk',
    'Blues',
    'Country',
    'Folk',
    'Latin',
    'Disco',
    'Ballad',
    'Original'
  ],
  gigKinds: [
    'Wedding',
    'Birthday',
    'Corporate event',
    'Street festival',
    'Club',
    'Festival',
    'Gala',
    'Other'
  ]
}
const GERMAN_LISTS = { genres: DEFAULT_APP_CONFIG.genres, gigKinds: DEFAULT_APP_CONFIG.gigKinds }

/** The built-in genres and gig kinds of a locale's language (German, else English). */
export const builtInLists = (locale: string) =>
  locale.toLowerCase().startsWith('de') ? GERMAN_LISTS : ENGLISH_LISTS

const sameList = (a: string[], b: string[]) =>
  a.length === b.length && a.every((value, i) => value === b[i])

/**
 * A change of language takes the built-in lists along when they are still untouched: the band
 * that chose German at setup gets German gig kinds, its own lists are never replaced.
 */
export function withListsOf (
  config: EditableAppConfigType,
  previousLocale: string
): EditableAppConfigType {
  const before = builtInLists(previousLocale)
  const after = builtInLists(config.locale)
  if (before === after) return config
  return {
    ...config,
    genres: sameList(config.genres, before.genres) ? after.genres : config.genres,
    gigKinds: sameList(config.gigKinds, before.gigKinds) ? after.gigKinds : config.gigKinds
  }
}

/**
 * A fresh installation's configuration: BAND_LOCALE and TZ when set, else English and UTC, with the
 * built-in lists of that language. The language counts as chosen only when BAND_LOCALE set it;
 * until then the web app follows each browser's language.
 */
export function firstRunAppConfig (locale?: string, timezone?: string): EditableAppConfigType {
  const chosen = locale ?? 'en-GB'
  const german = chosen.toLowerCase().startsWith('de')
  return {
    ...DEFAULT_APP_CONFIG,
    bandName: german ? 'Unsere Band' : 'Our Band',
    timezone: timezone ?? 'UTC',
    locale: chosen,
    ...builtInLists(chosen),
    chordNotation: german ? 'german' : 'english',
    setup: { localeChosen: locale !== undefined, checklistDismissed: false }
  }
}

export const LogoInfo = Type.Object({
  mimeType: Type.Union([Type.Literal('image/png'), Type.Literal('image/jpeg')]),
  bytes: Type.Integer(),
  etag: Type.String(),
  updatedAt: Type.String({ format: 'date-time' })
})
export type LogoInfoType = Static<typeof LogoInfo>

const Colour = Type.String({ pattern: '^#[0-9a-f]{6}$', examples: ['#37474f'] })

/** The colours the generated documents use (src/documents/palette.ts), for the admin's preview. */
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

/** The first-evening steps, in the order the checklist shows them. */
export const SETUP_STEPS = [
  'band', 'language', 'password', 'members', 'songs', 'gig', 'https', 'backups'
] as const
export const SetupChecklist = Type.Object({
  dismissed: Type.Boolean(),
  steps: Type.Array(
    Type.Object({ id: StringEnum(SETUP_STEPS), done: Type.Boolean() }),
    {
      description: 'every step, in order; done is computed from what the band has, `https` ' +
        'from this request (HTTPS, directly or through the trusted proxy), `backups` from ' +
        'BACKUP_DIR'
    }
  )
})
export type SetupChecklistType = Static<typeof SetupChecklist>
export const SetupChecklistPut = StrictObject({ dismissed: Type.Boolean() })
