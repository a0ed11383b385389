// Field limits (characters) of the request schemas (schemas/), defined once: the web app's forms
// take their `maxlength` from here, so a form never lets through what the API refuses.

/** A gig's master data (schemas/gigs.ts). */
export const GIG_LIMITS = {
  name: 200,
  venueName: 200,
  venueAddress: 300,
  venueCity: 120,
  organizerName: 200,
  organizerContact: 300,
  notes: 5000
} as const

/** A row of a gig's running order (schemas/gigs.ts, ScheduleItemInput). */
export const SCHEDULE_LIMITS = {
  title: 200,
  who: 200,
  where: 200,
  notes: 2000
} as const

/** An item of a gig's checklist (schemas/checklist.ts). */
export const CHECKLIST_LIMITS = {
  title: 200,
  category: 60,
  notes: 2000
} as const

/** A song's fields (schemas/songs.ts). */
export const SONG_LIMITS = {
  title: 200,
  artist: 200,
  leadSinger: 120,
  backingVocals: 200,
  publisher: 200,
  gemaWorkNumber: 20,
  /**
   * Not a schema maxLength: the ISWC field has only a pattern, and its longest match is
   * 15 characters (T-034.524.680-1). The form stops there instead of at a guess.
   */
  iswc: 15,
  notes: 2000,
  /** The song list's search (GET /songs?q=). */
  query: 100
} as const

/** A set and its entries (schemas/setlists.ts; gig and repertoire setlists alike). */
export const SETLIST_LIMITS = {
  setName: 100,
  entryTitle: 200,
  entryNotes: 1000
} as const

/** A repertoire programme (schemas/repertoire.ts). */
export const PROGRAMME_LIMITS = {
  name: 120,
  notes: 2000
} as const

/** A rehearsal (schemas/rehearsals.ts). */
export const REHEARSAL_LIMITS = {
  location: 200,
  notes: 2000,
  songNotes: 1000
} as const

/** A survey and a member's answer to it (schemas/surveys.ts). */
export const SURVEY_LIMITS = {
  title: 200,
  description: 2000,
  optionLabel: 200,
  answerComment: 200
} as const

/** A user account (schemas/users.ts). */
export const USER_LIMITS = {
  username: 40,
  displayName: 80,
  /** RFC 5321's longest forward path. */
  email: 254,
  /** One instrument's name, and how many a member lists. */
  instrument: 40,
  instruments: 20,
  /** The comma-separated field of the forms: every name at its longest, with ", " between. */
  instrumentsText: 20 * 40 + 19 * 2
} as const

/**
 * The password policy's length in characters (NIST SP 800-63B: 15–256), checked by
 * src/auth/password.ts. The request schemas accept up to 1024 so that a longer password gets the
 * policy's WEAK_PASSWORD answer (reason too_long), not a bare validation error.
 */
export const PASSWORD_LIMITS = {
  min: 15,
  max: 256
} as const

/** What an admin configures (schemas/app-config.ts). */
export const APP_CONFIG_LIMITS = {
  appName: 80,
  bandName: 120,
  timezone: 64
} as const

/** Uploads (bytes): the logo route's body limit, also the band import's check of a logo. */
export const UPLOAD_LIMITS = {
  logoBytes: 2 * 1024 * 1024
} as const

/** A gig's money (schemas/money.ts): amounts in cents, list sizes, text lengths. */
export const MONEY_LIMITS = {
  amountCents: 100_000_000_00,
  expenses: 100,
  rules: 50,
  title: 200,
  partyName: 80,
  invoiceNumber: 60,
  note: 500,
  /** An ISO 4217 code. */
  currency: 3
} as const

/** The songbook import (POST /songs/import) and the chart converter (POST /charts/convert). */
export const CHART_FILE_LIMITS = {
  /** Characters of chords-over-lyrics text the converter takes (a chart is at most 64 KiB). */
  convertText: 64 * 1024,
  /** The whole upload: every file and archive of one import together. */
  uploadBytes: 20 * 1024 * 1024,
  /** Files and archives in one upload. */
  uploadFiles: 500,
  /** Charts in one import, counting those inside archives. */
  charts: 2000,
  /** What one archive may hold once expanded (its charts are ≤ 64 KiB each besides). */
  archiveExpandedBytes: 64 * 1024 * 1024,
  /** A file name as the report shows it. */
  fileName: 255
} as const

/** A song's or gig's file (schemas/files.ts; sizes in bytes, checked while the upload streams). */
export const FILE_LIMITS = {
  title: 200,
  /** PDFs, images and text. */
  documentBytes: 20 * 1024 * 1024,
  /** MP3, M4A/AAC, Ogg/Opus, FLAC, WAV. */
  audioBytes: 60 * 1024 * 1024,
  /** Files per song or gig. */
  perOwner: 50
} as const

/** What a gig needs by instrument (schemas/lineup.ts). */
export const LINEUP_LIMITS = {
  needs: 30,
  instrument: 60,
  count: 20,
  /** Substitutes without a login named on one gig. */
  substitutes: 30,
  substituteName: 80,
  substituteContact: 120
} as const

/** Push notifications (schemas/push.ts): subscriptions per member, sizes a browser sends. */
export const PUSH_LIMITS = {
  perUser: 10,
  endpoint: 1000,
  /** The base64url keys: p256dh is a 65-byte point (87 characters), auth 16 bytes (22). */
  key: 200
} as const
