// The fixed value sets of the domain, each defined once: the Drizzle columns (src/db/schema.ts),
// the TypeBox schemas (schemas/) and the web app's choices are derived from these, and so are the
// types. Shared code: no Node or Fastify imports (src/db/schema.ts reaches it by a relative path,
// since drizzle-kit loads it without the package imports).

export const ROLES = ['admin', 'editor', 'member'] as const
export const USER_STATUSES = ['active', 'inactive'] as const
/** proposed → accepted → rehearsing → ready; retired songs are kept for setlists and GEMA. */
export const SONG_STATUSES = ['proposed', 'accepted', 'rehearsing', 'ready', 'retired'] as const
/** The band has taken the song on: a proposal that moves to one of these was accepted. */
export const ACCEPTED_SONG_STATUSES: readonly SongStatus[] = SONG_STATUSES.filter(
  (status) => status !== 'proposed' && status !== 'retired'
)
export const VOTE_VALUES = ['yes', 'no', 'abstain'] as const
/** A member's answer for a gig or rehearsal. */
export const AVAILABILITY_STATUSES = ['yes', 'no', 'maybe'] as const
export const SURVEY_KINDS = ['poll', 'date'] as const
export const SURVEY_STATUSES = ['open', 'closed'] as const
export const ANSWER_VALUES = ['yes', 'maybe', 'no'] as const
export const GIG_STATUSES = ['inquiry', 'confirmed', 'declined', 'cancelled'] as const
/** A setlist entry in live mode. */
export const ENTRY_STATUSES = ['planned', 'played', 'skipped'] as const
/**
 * An editor's tap in live mode, kept for Undo: `update` (played, skip, rating), `insert`,
 * `make_current`, and `undo` itself (which reverts the latest tap not yet undone).
 */
/** A one-time link: `reset` sets a new password, `invite` a new member's first one. */
export const LINK_KINDS = ['reset', 'invite'] as const
export const LIVE_TAP_KINDS = ['update', 'insert', 'make_current', 'undo'] as const
/** What a song's or gig's file is to the band (the type itself comes from its bytes). */
export const FILE_KINDS = ['sheet', 'recording', 'document', 'image'] as const
/**
 * Why a new password is refused (400 WEAK_PASSWORD's `reason`): shorter or longer than the policy,
 * containing the username, a known-common password, or unchanged where a new one is required.
 */
export const WEAK_PASSWORD_REASONS = [
  'too_short',
  'too_long',
  'contains_username',
  'too_common',
  'unchanged'
] as const

/** Why the songbook import refused a file (POST /songs/import). */
export const IMPORT_REFUSALS = [
  'too_large',
  'empty',
  'binary',
  'unsupported_type',
  'nested_archive',
  'unsafe_name',
  'broken_archive',
  'too_many',
  'duplicate'
] as const
export type ImportRefusalReason = (typeof IMPORT_REFUSALS)[number]

/** What the chords-over-lyrics converter asks a reader to check (POST /charts/convert). */
export const CONVERT_WARNINGS =
  ['already_chordpro', 'no_chord_lines', 'not_a_chord', 'tab_characters'] as const
export type ConvertWarningCode = (typeof CONVERT_WARNINGS)[number]
/**
 * What a mail to a member is about: a new event (or a gig now confirmed), a change of its date,
 * time or place, its cancellation, a survey opened, a reminder to answer.
 */
export const MAIL_KINDS = ['new', 'changed', 'cancelled', 'survey', 'reminder', 'digest'] as const
/** A mail in the outbox: waiting (or waiting for a retry), being sent, sent, given up. */
export const MAIL_STATUSES = ['queued', 'sending', 'sent', 'failed'] as const
/** The events whose changes the mails report; those that take answers (availability). */
export const WATCHED_KINDS = ['gig', 'rehearsal', 'survey'] as const
export const ANSWERED_KINDS = ['gig', 'rehearsal'] as const
/** What a member may turn off, each kind of mail (see MAIL_KINDS) under one of these. */
export const MAIL_TOPICS = ['newEvents', 'changes', 'reminders', 'surveys', 'digest'] as const
export type MailTopic = (typeof MAIL_TOPICS)[number]
export type MailKind = (typeof MAIL_KINDS)[number]
export type MailStatus = (typeof MAIL_STATUSES)[number]

export type LinkKind = (typeof LINK_KINDS)[number]
export type Role = (typeof ROLES)[number]
export type UserStatus = (typeof USER_STATUSES)[number]
export type SongStatus = (typeof SONG_STATUSES)[number]
export type VoteValue = (typeof VOTE_VALUES)[number]
export type AvailabilityStatus = (typeof AVAILABILITY_STATUSES)[number]
export type SurveyStatus = (typeof SURVEY_STATUSES)[number]
export type AnswerValue = (typeof ANSWER_VALUES)[number]
export type GigStatus = (typeof GIG_STATUSES)[number]
export type EntryStatus = (typeof ENTRY_STATUSES)[number]
export type LiveTapKind = (typeof LIVE_TAP_KINDS)[number]
export type WeakPasswordReason = (typeof WEAK_PASSWORD_REASONS)[number]

/** The roles in rising order of rights, member < editor < admin: ROLES read backwards. */
export const ROLES_RISING: readonly Role[] = [...ROLES].reverse()

/** Whether `role` has the rights of `needed`: an admin may all an editor may, and so on. */
export const roleAtLeast = (role: Role, needed: Role): boolean =>
  ROLES_RISING.indexOf(role) >= ROLES_RISING.indexOf(needed)
