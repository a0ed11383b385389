import {
  blob,
  check,
  index,
  integer,
  primaryKey,
  sql,
  sqliteTable,
  text,
  uniqueIndex
} from './orm.js'
// drizzle-kit loads this file without the package imports (#shared/*): relative paths.
// eslint-disable-next-line no-restricted-imports
import {
  ANSWER_VALUES,
  AVAILABILITY_STATUSES,
  ENTRY_STATUSES,
  FILE_KINDS,
  GIG_STATUSES,
  LINK_KINDS,
  LIVE_TAP_KINDS,
  MAIL_KINDS,
  MAIL_STATUSES,
  MAIL_TOPICS,
  WATCHED_KINDS,
  ANSWERED_KINDS,
  ROLES,
  SONG_STATUSES,
  SURVEY_KINDS,
  SURVEY_STATUSES,
  USER_STATUSES,
  VOTE_VALUES
} from '../shared/enums.js'
// eslint-disable-next-line no-restricted-imports
import type { MoneyRules, Party } from '../shared/money.js'

// Instants are RFC 3339 UTC strings (lexically ordered); dates `YYYY-MM-DD`, wall-clock times
// `HH:MM` and local date-times `YYYY-MM-DDTHH:MM` are in the band's timezone, as in the API
// contract.
const createdAt = () => text('created_at').notNull()
const updatedAt = () => text('updated_at').notNull()

// Members: users, their sessions, and the links and tokens issued to them.
export const users = sqliteTable(
  'users',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    username: text('username').notNull(),
    displayName: text('display_name').notNull(),
    email: text('email'),
    role: text('role', { enum: ROLES })
      .notNull()
      .default('member'),
    status: text('status', { enum: USER_STATUSES })
      .notNull()
      .default('active'),
    isMusician: integer('is_musician', { mode: 'boolean' }).notNull().default(true),
    isSinger: integer('is_singer', { mode: 'boolean' }).notNull().default(false),
    /** A sub: mailed and counted only for the gigs an editor asks them for (gig_asked). */
    occasional: integer('occasional', { mode: 'boolean' }).notNull().default(false),
    instruments: text('instruments', { mode: 'json' })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    passwordHash: text('password_hash').notNull(),
    // Every route but /me and /change_password answers 403 PASSWORD_CHANGE_REQUIRED until the user
    // chooses a new password: an imported one below the policy, or an initial one an admin set.
    passwordChangeRequired: integer('password_change_required', { mode: 'boolean' })
      .notNull()
      .default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt()
  },
  (t) => [uniqueIndex('users_username_unique').on(sql`lower(${t.username})`)]
)

export const sessions = sqliteTable(
  'sessions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    refreshHash: text('refresh_hash').notNull(),
    // The token this one replaced: accepted for a few seconds (two tabs racing), theft after that.
    previousRefreshHash: text('previous_refresh_hash'),
    rotatedAt: text('rotated_at'),
    createdAt: createdAt(),
    lastSeenAt: text('last_seen_at').notNull(),
    expiresAt: text('expires_at').notNull(),
    revokedAt: text('revoked_at'),
    userAgent: text('user_agent'),
    ip: text('ip')
  },
  (t) => [
    uniqueIndex('sessions_refresh_hash_unique').on(t.refreshHash),
    index('sessions_previous_refresh_hash_idx').on(t.previousRefreshHash),
    index('sessions_user_idx').on(t.userId)
  ]
)

/**
 * Every refresh token a session has rotated away, hashed: presenting any of them again (outside the
 * grace window for the immediately previous one) is theft and ends the session, however many
 * rotations later.
 */
export const refreshTokenHistory = sqliteTable(
  'refresh_token_history',
  {
    tokenHash: text('token_hash').primaryKey(),
    sessionId: integer('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    rotatedAt: text('rotated_at').notNull()
  },
  (t) => [index('refresh_token_history_session_idx').on(t.sessionId)]
)

/** One-time password reset links: only the SHA-256 of the token is stored. */
export const passwordResetTokens = sqliteTable(
  'password_reset_tokens',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    kind: text('kind', { enum: LINK_KINDS }).notNull().default('reset'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: text('expires_at').notNull(),
    usedAt: text('used_at')
  },
  (t) => [
    uniqueIndex('password_reset_tokens_hash_unique').on(t.tokenHash),
    index('password_reset_tokens_user_idx').on(t.userId)
  ]
)

export const calendarTokens = sqliteTable(
  'calendar_tokens',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt()
  },
  (t) => [uniqueIndex('calendar_tokens_hash_unique').on(t.tokenHash)]
)

// The band: its configuration, this installation, the logo and imported data.
/** One row (id = 1): the band's app configuration as a JSON document. */
export const appSettings = sqliteTable(
  'app_settings',
  {
    id: integer('id').primaryKey(),
    config: text('config', { mode: 'json' }).notNull(),
    updatedAt: updatedAt()
  },
  (t) => [check('app_settings_single_row', sql`${t.id} = 1`)]
)

/**
 * One row (id = 1): this installation's own random id, created on first use. Calendar UIDs carry
 * it, so they neither depend on the host a feed is fetched through nor collide with another
 * installation's.
 */
export const installation = sqliteTable(
  'installation',
  {
    id: integer('id').primaryKey(),
    uid: text('uid').notNull(),
    createdAt: createdAt()
  },
  (t) => [check('installation_single_row', sql`${t.id} = 1`)]
)

/** One row (id = 1): the band logo. */
export const appLogo = sqliteTable(
  'app_logo',
  {
    id: integer('id').primaryKey(),
    mimeType: text('mime_type').notNull(),
    /** The upload as sent (GET /public/logo). */
    data: blob('data', { mode: 'buffer' }).notNull(),
    etag: text('etag').notNull(),
    updatedAt: updatedAt(),
    /**
     * Whether the logo was checked and prepared for documents (false: stored by a version before
     * that; prepared at the next start, see plugins/app-config).
     */
    prepared: integer('prepared', { mode: 'boolean' }).notNull().default(false),
    /** The documents' copy (src/documents/logo.ts); null when the stored logo was refused. */
    watermark: blob('watermark', { mode: 'buffer' }),
    /** The documents' accent colour `#rrggbb`; null for the neutral palette. */
    accent: text('accent')
  },
  (t) => [check('app_logo_single_row', sql`${t.id} = 1`)]
)

/**
 * Data brought in from another system (a libreStage database): which file (by the SHA-256 of its
 * bytes), when, and the per-table counts of its report. A second import of the same file is
 * refused by its fingerprint; the row travels with the band export, so it is refused after a move
 * too.
 */
export const dataImports = sqliteTable(
  'data_imports',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    source: text('source').notNull(),
    fingerprint: text('fingerprint').notNull(),
    fileName: text('file_name').notNull(),
    importedAt: text('imported_at').notNull(),
    summary: text('summary', { mode: 'json' }).notNull()
  },
  (t) => [uniqueIndex('data_imports_fingerprint_unique').on(t.source, t.fingerprint)]
)

// Songs and the votes on proposed songs.
export const songs = sqliteTable(
  'songs',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    title: text('title').notNull(),
    artist: text('artist'),
    genre: text('genre'),
    durationSeconds: integer('duration_seconds'),
    // Canonical key ("Bb", "Gm": src/shared/keys.ts); null when none or unreadable.
    key: text('key'),
    // A key written before keys were music that could not be read: shown as written until a key
    // is chosen, listed by `bandstand doctor`.
    keyText: text('key_text'),
    tempoBpm: integer('tempo_bpm'),
    leadSinger: text('lead_singer'),
    backingVocals: text('backing_vocals'),
    composers: text('composers', { mode: 'json' })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    lyricists: text('lyricists', { mode: 'json' })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    arrangers: text('arrangers', { mode: 'json' })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    publisher: text('publisher'),
    gemaWorkNumber: text('gema_work_number'),
    iswc: text('iswc'),
    isOriginal: integer('is_original', { mode: 'boolean' }).notNull().default(false),
    status: text('status', { enum: SONG_STATUSES })
      .notNull()
      .default('proposed'),
    notes: text('notes'),
    // ChordPro text exactly as sent (≤ 64 KiB UTF-8), null when the song has none.
    chart: text('chart'),
    links: text('links', { mode: 'json' })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    proposedBy: integer('proposed_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt()
  },
  (t) => [index('songs_title_idx').on(t.title), index('songs_status_idx').on(t.status)]
)

export const songVotes = sqliteTable(
  'song_votes',
  {
    songId: integer('song_id')
      .notNull()
      .references(() => songs.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    vote: text('vote', { enum: VOTE_VALUES }).notNull(),
    updatedAt: updatedAt()
  },
  (t) => [primaryKey({ columns: [t.songId, t.userId] }), index('song_votes_user_idx').on(t.userId)]
)

// Rehearsals: the songs to practise and who can come.
export const rehearsals = sqliteTable(
  'rehearsals',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    date: text('date').notNull(),
    startTime: text('start_time').notNull(),
    endTime: text('end_time').notNull(),
    location: text('location'),
    notes: text('notes'),
    // Bumped on every change: the calendar feed's SEQUENCE.
    sequence: integer('sequence').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt()
  },
  (t) => [index('rehearsals_date_idx').on(t.date, t.startTime)]
)

export const rehearsalSongs = sqliteTable(
  'rehearsal_songs',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    rehearsalId: integer('rehearsal_id')
      .notNull()
      .references(() => rehearsals.id, { onDelete: 'cascade' }),
    songId: integer('song_id')
      .notNull()
      .references(() => songs.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    notes: text('notes'),
    done: integer('done', { mode: 'boolean' }).notNull().default(false)
  },
  (t) => [index('rehearsal_songs_rehearsal_idx').on(t.rehearsalId, t.position)]
)

export const rehearsalAvailability = sqliteTable(
  'rehearsal_availability',
  {
    rehearsalId: integer('rehearsal_id')
      .notNull()
      .references(() => rehearsals.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: AVAILABILITY_STATUSES }).notNull(),
    note: text('note'),
    updatedAt: updatedAt()
  },
  (t) => [
    primaryKey({ columns: [t.rehearsalId, t.userId] }),
    index('rehearsal_availability_user_idx').on(t.userId)
  ]
)

// Surveys: options and answers.
export const surveys = sqliteTable(
  'surveys',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    title: text('title').notNull(),
    description: text('description'),
    kind: text('kind', { enum: SURVEY_KINDS }).notNull(),
    multipleChoice: integer('multiple_choice', { mode: 'boolean' }).notNull().default(false),
    status: text('status', { enum: SURVEY_STATUSES })
      .notNull()
      .default('open'),
    closesAt: text('closes_at'),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt()
  },
  (t) => [index('surveys_created_idx').on(t.createdAt)]
)

export const surveyOptions = sqliteTable(
  'survey_options',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    surveyId: integer('survey_id')
      .notNull()
      .references(() => surveys.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    label: text('label').notNull(),
    at: text('at')
  },
  (t) => [index('survey_options_survey_idx').on(t.surveyId, t.position)]
)

export const surveyAnswers = sqliteTable(
  'survey_answers',
  {
    surveyId: integer('survey_id')
      .notNull()
      .references(() => surveys.id, { onDelete: 'cascade' }),
    optionId: integer('option_id')
      .notNull()
      .references(() => surveyOptions.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    value: text('value', { enum: ANSWER_VALUES }).notNull(),
    /** The member's optional word on this answer (≤ 200 characters, like a plan comment). */
    comment: text('comment'),
    answeredAt: text('answered_at').notNull()
  },
  (t) => [
    primaryKey({ columns: [t.optionId, t.userId] }),
    index('survey_answers_survey_user_idx').on(t.surveyId, t.userId)
  ]
)

// Gigs: who can play, the running order and the checklist.
export const gigs = sqliteTable(
  'gigs',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    name: text('name').notNull(),
    date: text('date').notNull(),
    kind: text('kind'),
    status: text('status', { enum: GIG_STATUSES })
      .notNull()
      .default('inquiry'),
    venueName: text('venue_name'),
    venueAddress: text('venue_address'),
    venueCity: text('venue_city'),
    organizerName: text('organizer_name'),
    organizerContact: text('organizer_contact'),
    getInTime: text('get_in_time'),
    soundcheckTime: text('soundcheck_time'),
    doorsTime: text('doors_time'),
    startTime: text('start_time'),
    endTime: text('end_time'),
    notes: text('notes'),
    // Optimistic concurrency for PUT /gigs/{id}/setlist.
    setlistVersion: integer('setlist_version').notNull().default(0),
    // Bumped by every live-mode change (and setlist save): ETag and SSE event ids.
    liveVersion: integer('live_version').notNull().default(0),
    // Bumped on every change of the gig: the calendar feed's SEQUENCE.
    sequence: integer('sequence').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt()
  },
  (t) => [index('gigs_date_idx').on(t.date, t.startTime), index('gigs_status_idx').on(t.status)]
)

export const gigAvailability = sqliteTable(
  'gig_availability',
  {
    gigId: integer('gig_id')
      .notNull()
      .references(() => gigs.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: AVAILABILITY_STATUSES }).notNull(),
    note: text('note'),
    updatedAt: updatedAt()
  },
  (t) => [
    primaryKey({ columns: [t.gigId, t.userId] }),
    index('gig_availability_user_idx').on(t.userId)
  ]
)

// A gig's money: the fee, its expenses and the rules that split the rest (one row per gig, the
// lists as JSON: they are read and written whole, with `version` for optimistic concurrency).
export const gigMoney = sqliteTable('gig_money', {
  gigId: integer('gig_id')
    .primaryKey()
    .references(() => gigs.id, { onDelete: 'cascade' }),
  feeCents: integer('fee_cents').notNull(),
  currency: text('currency').notNull(),
  paid: integer('paid', { mode: 'boolean' }).notNull(),
  paidOn: text('paid_on'),
  receivedBy: text('received_by', { mode: 'json' }).$type<Party | null>(),
  invoiceNumber: text('invoice_number'),
  expenses: text('expenses', { mode: 'json' })
    .$type<Array<{
      paidBy: Party | null, title: string, amountCents: number, receiptFileId?: number | null
    }>>()
    .notNull(),
  rules: text('rules', { mode: 'json' }).$type<MoneyRules>().notNull(),
  version: integer('version').notNull(),
  updatedAt: updatedAt()
})

// Money that changed hands to settle balances (`POST /money/payments`).
export const moneyPayments = sqliteTable(
  'money_payments',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    fromParty: text('from_party', { mode: 'json' }).$type<Party>().notNull(),
    toParty: text('to_party', { mode: 'json' }).$type<Party>().notNull(),
    amountCents: integer('amount_cents').notNull(),
    paidOn: text('paid_on').notNull(),
    note: text('note'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt()
  },
  (t) => [index('money_payments_paid_on_idx').on(t.paidOn)]
)

export const gigScheduleItems = sqliteTable(
  'gig_schedule_items',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    gigId: integer('gig_id')
      .notNull()
      .references(() => gigs.id, { onDelete: 'cascade' }),
    at: text('at').notNull(),
    title: text('title').notNull(),
    who: text('who'),
    where: text('where'),
    notes: text('notes')
  },
  (t) => [index('gig_schedule_items_gig_idx').on(t.gigId, t.at)]
)

/** A gig's to-do list (the gig checklist): positions are dense (0..n-1) per gig. */
export const gigChecklistItems = sqliteTable(
  'gig_checklist_items',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    gigId: integer('gig_id')
      .notNull()
      .references(() => gigs.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    title: text('title').notNull(),
    category: text('category'),
    assigneeId: integer('assignee_id').references(() => users.id, { onDelete: 'set null' }),
    // Local date-time `YYYY-MM-DDTHH:MM` in the band timezone.
    dueAt: text('due_at'),
    done: integer('done', { mode: 'boolean' }).notNull().default(false),
    doneAt: text('done_at'),
    doneBy: integer('done_by').references(() => users.id, { onDelete: 'set null' }),
    notes: text('notes'),
    createdAt: createdAt(),
    updatedAt: updatedAt()
  },
  (t) => [
    index('gig_checklist_items_gig_idx').on(t.gigId, t.position),
    index('gig_checklist_items_assignee_idx').on(t.assigneeId, t.done)
  ]
)

// A gig's setlist: sets, entries, its publication and the taps of live mode.
export const setlistSets = sqliteTable(
  'setlist_sets',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    gigId: integer('gig_id')
      .notNull()
      .references(() => gigs.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    breakAfterSeconds: integer('break_after_seconds')
  },
  (t) => [index('setlist_sets_gig_idx').on(t.gigId, t.position)]
)

export const setlistEntries = sqliteTable(
  'setlist_entries',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    gigId: integer('gig_id')
      .notNull()
      .references(() => gigs.id, { onDelete: 'cascade' }),
    setId: integer('set_id')
      .notNull()
      .references(() => setlistSets.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    // RESTRICT: a song that a setlist uses is retired, never deleted. Null for a free-text entry.
    songId: integer('song_id').references(() => songs.id, { onDelete: 'restrict' }),
    // A free-text entry (a speech, the first dance, a medley intro): its title, and no song.
    // Exactly one of song_id and title is set (the API checks it: a CHECK rebuilds the table).
    title: text('title'),
    notes: text('notes'),
    durationSeconds: integer('duration_seconds'),
    status: text('status', { enum: ENTRY_STATUSES })
      .notNull()
      .default('planned'),
    inserted: integer('inserted', { mode: 'boolean' }).notNull().default(false),
    rating: integer('rating'),
    liveUpdatedAt: text('live_updated_at'),
    // Semitones this gig plays the song away from its chart, and the capo fret (null: none given).
    // Ranges are checked by the API schema: a CHECK would make drizzle-kit rebuild the table.
    transpose: integer('transpose').notNull().default(0),
    capo: integer('capo')
  },
  (t) => [
    index('setlist_entries_gig_idx').on(t.gigId, t.position),
    index('setlist_entries_set_idx').on(t.setId, t.position),
    index('setlist_entries_song_idx').on(t.songId),
    check('setlist_entries_rating_range', sql`${t.rating} IS NULL OR ${t.rating} BETWEEN 1 AND 3`)
  ]
)

/** When a gig's setlist was last published to the band, and which version. */
export const setlistPublications = sqliteTable('setlist_publications', {
  gigId: integer('gig_id')
    .primaryKey()
    .references(() => gigs.id, { onDelete: 'cascade' }),
  version: integer('version').notNull(),
  publishedAt: text('published_at').notNull(),
  publishedBy: integer('published_by').references(() => users.id, { onDelete: 'set null' })
})

/**
 * The taps of live mode, newest last: what Undo reverts. `before` holds each touched entry's state
 * before the tap (JSON `[{ id, status, rating, liveUpdatedAt }]`; for an insert the new entry's
 * `[{ id }]`). `idempotency_key`: a replayed request (a phone's retry or its outbox) is answered
 * with the current state instead of being applied twice.
 */
export const liveTaps = sqliteTable(
  'live_taps',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    gigId: integer('gig_id')
      .notNull()
      .references(() => gigs.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: LIVE_TAP_KINDS }).notNull(),
    before: text('before').notNull(),
    /** The undo tap that reverted this one; null while it stands. */
    undoneBy: integer('undone_by'),
    idempotencyKey: text('idempotency_key'),
    /** The gig's live version after this tap: a queued tap made on an older one is checked. */
    version: integer('version'),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt()
  },
  (t) => [
    index('live_taps_gig_idx').on(t.gigId, t.id),
    // Per user: one member's key never replays (or blocks) another's tap.
    uniqueIndex('live_taps_key_idx').on(t.gigId, t.userId, t.idempotencyKey)
  ]
)

// Repertoire setlists.
/**
 * The band's standard programmes: named lists of sets independent of a gig, edited like a gig
 * setlist (same rules, same code, `version` for optimistic concurrency).
 */
export const repertoireSetlists = sqliteTable(
  'repertoire_setlists',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    name: text('name').notNull(),
    notes: text('notes'),
    version: integer('version').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt()
  },
  (t) => [uniqueIndex('repertoire_setlists_name_unique').on(sql`lower(${t.name})`)]
)

export const repertoireSets = sqliteTable(
  'repertoire_sets',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    repertoireId: integer('repertoire_id')
      .notNull()
      .references(() => repertoireSetlists.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    breakAfterSeconds: integer('break_after_seconds')
  },
  (t) => [index('repertoire_sets_list_idx').on(t.repertoireId, t.position)]
)

export const repertoireEntries = sqliteTable(
  'repertoire_entries',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    repertoireId: integer('repertoire_id')
      .notNull()
      .references(() => repertoireSetlists.id, { onDelete: 'cascade' }),
    setId: integer('set_id')
      .notNull()
      .references(() => repertoireSets.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    // RESTRICT as for gig setlists: a song a programme uses is retired, never deleted. Null for
    // a free-text entry, which has a title instead (as on a gig's setlist).
    songId: integer('song_id').references(() => songs.id, { onDelete: 'restrict' }),
    title: text('title'),
    notes: text('notes'),
    durationSeconds: integer('duration_seconds'),
    // As on a gig's setlist: a programme carries the song's transposition into the gigs it fills.
    transpose: integer('transpose').notNull().default(0),
    capo: integer('capo')
  },
  (t) => [
    index('repertoire_entries_list_idx').on(t.repertoireId, t.position),
    index('repertoire_entries_set_idx').on(t.setId, t.position),
    index('repertoire_entries_song_idx').on(t.songId)
  ]
)

/**
 * A file of a song or a gig (exactly one of the two). The bytes live under DATA_DIR/files/ named by
 * their SHA-256 (src/files/store.ts): the same bytes uploaded twice are stored once, and a stored
 * file is never changed, so a backup copies only new ones. Deleting the song or gig deletes the
 * rows; the bytes go when no row names them any more.
 */
export const files = sqliteTable(
  'files',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    songId: integer('song_id').references(() => songs.id, { onDelete: 'cascade' }),
    gigId: integer('gig_id').references(() => gigs.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: FILE_KINDS }).notNull(),
    title: text('title').notNull(),
    /** The name the upload carried (only ever shown and sent back, never a path). */
    fileName: text('file_name').notNull(),
    /** Taken from the bytes, one of the accepted types (src/files/sniff.ts). */
    mimeType: text('mime_type').notNull(),
    sha256: text('sha256').notNull(),
    bytes: integer('bytes').notNull(),
    uploadedBy: integer('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt()
  },
  (t) => [
    index('files_song_idx').on(t.songId),
    index('files_gig_idx').on(t.gigId),
    index('files_sha256_idx').on(t.sha256),
    check('files_one_owner', sql`(${t.songId} IS NULL) <> (${t.gigId} IS NULL)`)
  ]
)

// Row types.
export type UserRow = typeof users.$inferSelect
export type SessionRow = typeof sessions.$inferSelect
export type SongRow = typeof songs.$inferSelect
export type GigRow = typeof gigs.$inferSelect
export type FileRow = typeof files.$inferSelect
export type RehearsalRow = typeof rehearsals.$inferSelect
export type SurveyRow = typeof surveys.$inferSelect
export type MailOutboxRow = typeof mailOutbox.$inferSelect

// Mail to members: the outbox, the watch over the events it reports, and one-click answer links.
/**
 * Every mail to a member, written in the same transaction as its reason is noticed and sent by the
 * worker of plugins/notifications. `idem_key` names the mail (event, change, member): a second
 * notice of the same thing is no second row, and a mail interrupted mid-send goes out again with
 * the Message-ID derived from it, never as a new mail.
 */
export const mailOutbox = sqliteTable(
  'mail_outbox',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    idemKey: text('idem_key').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    toAddress: text('to_address').notNull(),
    kind: text('kind', { enum: MAIL_KINDS }).notNull(),
    subject: text('subject').notNull(),
    /** `{ text, html, ics?, unsubscribe? }`: the rendered mail, so a retry sends the same words. */
    body: text('body', { mode: 'json' }).$type<StoredMailBody>().notNull(),
    status: text('status', { enum: MAIL_STATUSES }).notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: text('next_attempt_at').notNull(),
    lastError: text('last_error'),
    createdAt: createdAt(),
    sentAt: text('sent_at')
  },
  (t) => [
    uniqueIndex('mail_outbox_idem_key_unique').on(t.idemKey),
    index('mail_outbox_due_idx').on(t.status, t.nextAttemptAt)
  ]
)

/**
 * What the mails last reported of each event (the event's `sequence` and the facts a member is
 * told of): a write anywhere — a route, the CLI, an import — that changes them is found by
 * comparing, not announced by the route that wrote it.
 */
export const mailWatch = sqliteTable(
  'mail_watch',
  {
    kind: text('kind', { enum: WATCHED_KINDS }).notNull(),
    eventId: integer('event_id').notNull(),
    /** The event's `sequence` (surveys: `updated_at`) when last compared. */
    seen: text('seen').notNull(),
    /** The reported facts, JSON (status, date, times, place). */
    facts: text('facts').notNull()
  },
  (t) => [primaryKey({ columns: [t.kind, t.eventId] })]
)

/** One-click answer links of the mails: only the SHA-256 of the token is stored. */
export const answerTokens = sqliteTable(
  'answer_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ANSWERED_KINDS }).notNull(),
    eventId: integer('event_id').notNull(),
    createdAt: createdAt()
  },
  (t) => [index('answer_tokens_event_idx').on(t.kind, t.eventId)]
)

/**
 * A gig's or rehearsal's own answer deadline (`answer_by`, a date in the band's timezone; null:
 * the band's default) and whether an editor locked the answers.
 */
export const answerDeadlines = sqliteTable(
  'answer_deadlines',
  {
    kind: text('kind', { enum: ANSWERED_KINDS }).notNull(),
    eventId: integer('event_id').notNull(),
    answerBy: text('answer_by'),
    locked: integer('locked', { mode: 'boolean' }).notNull().default(false)
  },
  (t) => [primaryKey({ columns: [t.kind, t.eventId] })]
)

/**
 * Reminders planned for an event's answer deadline: found by the timer once due, done once
 * handled (mailed, or skipped when pointless). Replanned when the event or its deadline changes.
 */
export const mailJobs = sqliteTable(
  'mail_jobs',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    kind: text('kind', { enum: ANSWERED_KINDS }).notNull(),
    eventId: integer('event_id').notNull(),
    dueAt: text('due_at').notNull(),
    doneAt: text('done_at')
  },
  (t) => [
    index('mail_jobs_due_idx').on(t.doneAt, t.dueAt),
    uniqueIndex('mail_jobs_event_due_unique').on(t.kind, t.eventId, t.dueAt)
  ]
)

/** What each member wants mailed (no row: everything but the digest). */
export const notificationPrefs = sqliteTable('notification_prefs', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  mail: integer('mail', { mode: 'boolean' }).notNull().default(true),
  newEvents: integer('new_events', { mode: 'boolean' }).notNull().default(true),
  changes: integer('changes', { mode: 'boolean' }).notNull().default(true),
  reminders: integer('reminders', { mode: 'boolean' }).notNull().default(true),
  surveys: integer('surveys', { mode: 'boolean' }).notNull().default(true),
  digest: integer('digest', { mode: 'boolean' }).notNull().default(false),
  updatedAt: updatedAt()
})

/** The one-click unsubscribe links of the mails (RFC 8058): only the SHA-256 is stored. */
export const unsubscribeTokens = sqliteTable(
  'unsubscribe_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    topic: text('topic', { enum: MAIL_TOPICS }).notNull(),
    createdAt: createdAt()
  },
  (t) => [index('unsubscribe_tokens_user_idx').on(t.userId)]
)

/**
 * A member's phone (or browser) that takes push notifications: the push service's endpoint and the
 * keys its messages are encrypted for (RFC 8291). A push service that answers 404/410 removes it.
 */
export const pushSubscriptions = sqliteTable(
  'push_subscriptions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    createdAt: createdAt()
  },
  (t) => [
    uniqueIndex('push_subscriptions_endpoint_unique').on(t.endpoint),
    index('push_subscriptions_user_idx').on(t.userId)
  ]
)

/**
 * Each push message to one subscription, written in the transaction that notices its reason, like
 * mail_outbox: `idem_key` names it (the mail's reason and the subscription), so it is sent once.
 */
export const pushOutbox = sqliteTable(
  'push_outbox',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    idemKey: text('idem_key').notNull(),
    subscriptionId: integer('subscription_id')
      .notNull()
      .references(() => pushSubscriptions.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: MAIL_KINDS }).notNull(),
    /** `{ title, body, url }`: what the service worker shows, in the band's language. */
    payload: text('payload', { mode: 'json' }).$type<PushPayload>().notNull(),
    status: text('status', { enum: MAIL_STATUSES }).notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: text('next_attempt_at').notNull(),
    lastError: text('last_error'),
    createdAt: createdAt(),
    sentAt: text('sent_at')
  },
  (t) => [
    uniqueIndex('push_outbox_idem_key_unique').on(t.idemKey),
    index('push_outbox_due_idx').on(t.status, t.nextAttemptAt)
  ]
)

export interface PushPayload {
  title: string
  body: string
  /** The event's page in the web app, a path under /app/. */
  url: string
}
export type PushOutboxRow = typeof pushOutbox.$inferSelect

/** What a gig needs, by instrument (`Drums` 1, `Vocals` 2): the players it must have. */
export const gigLineup = sqliteTable(
  'gig_lineup',
  {
    gigId: integer('gig_id')
      .notNull()
      .references(() => gigs.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    instrument: text('instrument').notNull(),
    count: integer('count').notNull()
  },
  (t) => [primaryKey({ columns: [t.gigId, t.position] })]
)

/** Occasional members (subs) an editor asked to play a gig: they hear of it and count for it. */
export const gigAsked = sqliteTable(
  'gig_asked',
  {
    gigId: integer('gig_id')
      .notNull()
      .references(() => gigs.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt()
  },
  (t) => [primaryKey({ columns: [t.gigId, t.userId] }), index('gig_asked_user_idx').on(t.userId)]
)

/** A substitute without a login, named on a gig: counts for the lineup as a yes. */
export const gigSubstitutes = sqliteTable(
  'gig_substitutes',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    gigId: integer('gig_id')
      .notNull()
      .references(() => gigs.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    instrument: text('instrument').notNull(),
    contact: text('contact'),
    createdAt: createdAt()
  },
  (t) => [index('gig_substitutes_gig_idx').on(t.gigId)]
)

/** The weekly digests, one row per week: planned ahead, done once sent or skipped. */
export const digestJobs = sqliteTable('digest_jobs', {
  dueAt: text('due_at').primaryKey(),
  doneAt: text('done_at')
})

export interface StoredMailBody {
  text: string
  html: string
  /** The event as iCalendar text, attached as `event.ics`. */
  ics?: string
  /** The one-click unsubscribe address (List-Unsubscribe). */
  unsubscribe?: string
}
