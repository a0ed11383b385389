/**
 * Every error code the API answers with (`code` in the error body), its HTTP status and what it
 * means. Code elsewhere names codes only through this catalogue (the types enforce it), so this is
 * the complete list a client has to know.
 */
export const ERROR_CODES = {
  // Any request
  VALIDATION_ERROR: { status: 400, means: 'fields missing, unknown or invalid (see details)' },
  INVALID_JSON: { status: 400, means: 'the body is not valid JSON' },
  INVALID_TEXT: {
    status: 400,
    means: 'text with control characters, bidirectional overrides or broken Unicode'
  },
  UNEXPECTED_BODY: { status: 400, means: 'a body sent to a route that takes none' },
  INVALID_CONTENT_LENGTH: { status: 400, means: 'Content-Length does not match the body' },
  INVALID_URL: { status: 400, means: 'the URL is not validly encoded' },
  BAD_REQUEST: { status: 400, means: 'another client error reported by the framework' },
  UNAUTHORIZED: { status: 401, means: 'no session cookie' },
  SESSION_INVALID: { status: 401, means: 'the session expired, ended or is invalid' },
  INVALID_CREDENTIALS: { status: 401, means: 'wrong username or password' },
  FORBIDDEN: { status: 403, means: 'the role does not allow it' },
  CROSS_SITE_REQUEST: { status: 403, means: 'a write from another origin' },
  PASSWORD_CHANGE_REQUIRED: {
    status: 403,
    means: 'the user must change their password first (PUT /change_password)'
  },
  ROUTE_NOT_FOUND: { status: 404, means: 'no such route' },
  BODY_TOO_LARGE: { status: 413, means: 'the body exceeds the limit' },
  URL_TOO_LONG: { status: 414, means: 'a path segment is too long' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, means: 'a Content-Type the route does not take' },
  RATE_LIMITED: { status: 429, means: 'too many requests; see Retry-After' },
  TOO_MANY_STREAMS: {
    status: 429,
    means: 'the server holds as many live-mode event streams as it may; see Retry-After'
  },
  INTERNAL_ERROR: { status: 500, means: 'a server error (logged with the reference)' },
  DOCUMENTS_BUSY: {
    status: 503,
    means: 'the document queue or the logo checks are full (see Retry-After); nothing was done'
  },
  SERVER_BUSY: {
    status: 503,
    means: 'more requests are waiting than the server takes (see Retry-After); nothing was done'
  },
  STORAGE_FAILED: {
    status: 503,
    means: 'the data could not be stored (disk full or failing; logged with the SQLite code); ' +
      'nothing was stored'
  },
  WEB_APP_NOT_BUILT: { status: 503, means: 'the server runs without a built web app (/app/)' },
  // Resources that do not exist
  GIG_NOT_FOUND: { status: 404, means: 'unknown gig' },
  REHEARSAL_NOT_FOUND: { status: 404, means: 'unknown rehearsal' },
  SESSION_NOT_FOUND: { status: 404, means: 'unknown session (or another user’s)' },
  SET_NOT_FOUND: { status: 404, means: 'unknown set of this gig' },
  SETLIST_ENTRY_NOT_FOUND: { status: 404, means: 'unknown setlist entry of this gig' },
  SONG_NOT_FOUND: { status: 404, means: 'unknown song' },
  SURVEY_NOT_FOUND: { status: 404, means: 'unknown survey' },
  USER_NOT_FOUND: { status: 404, means: 'unknown user' },
  LOGO_NOT_FOUND: { status: 404, means: 'no logo uploaded' },
  CALENDAR_NOT_FOUND: { status: 404, means: 'unknown or revoked calendar feed' },
  MAIL_NOT_FOUND: { status: 404, means: 'no such mail in the outbox' },
  PUSH_SUBSCRIPTION_NOT_FOUND: { status: 404, means: 'no such push subscription of yours' },
  CHECKLIST_ITEM_NOT_FOUND: { status: 404, means: 'unknown checklist item of this gig' },
  REPERTOIRE_NOT_FOUND: { status: 404, means: 'unknown repertoire setlist' },
  PAYMENT_NOT_FOUND: { status: 404, means: 'unknown payment' },
  // Limits
  LIMIT_REACHED: { status: 409, means: 'a per-resource limit is reached (see message)' },
  // Users and sessions
  WEAK_PASSWORD: { status: 400, means: 'the password fails the policy (why: `reason`)' },
  WRONG_PASSWORD: { status: 403, means: 'the current password is wrong' },
  USERNAME_TAKEN: { status: 409, means: 'the username exists (case-insensitively)' },
  DISPLAY_NAME_TAKEN: {
    status: 409,
    means: "another active member's display name (case-insensitively), or an admin's title for " +
      'a non-admin'
  },
  LAST_ADMIN: { status: 409, means: 'the last active admin cannot be demoted or deactivated' },
  USER_INACTIVE: { status: 409, means: 'the user is inactive' },
  RESET_TOKEN_INVALID: { status: 400, means: 'unknown, used or expired password reset link' },
  // App configuration
  INVALID_TIMEZONE: { status: 400, means: 'not an IANA timezone' },
  UNSUPPORTED_IMAGE: { status: 400, means: 'the logo is neither PNG nor JPEG' },
  INVALID_IMAGE: { status: 400, means: 'the logo is damaged (the reason is in the message)' },
  IMAGE_TOO_LARGE: { status: 400, means: 'the logo exceeds the size limits (see the message)' },
  DUPLICATE_INSTRUMENT: { status: 400, means: 'an instrument named twice in a gig\'s lineup' },
  INVALID_PUSH_SUBSCRIPTION: {
    status: 400,
    means: 'a push endpoint that is no https URL, or keys that are no P-256 key and auth secret'
  },
  LINEUP_INSTRUMENT_UNKNOWN: {
    status: 400,
    means: "no need of the gig's lineup names this instrument"
  },
  NOT_OCCASIONAL: { status: 400, means: 'only active occasional members are asked for a gig' },
  TOO_MANY_SUBSTITUTES: { status: 400, means: 'a gig names at most 30 substitutes' },
  NOT_ASKED: { status: 404, means: 'this member is not asked for the gig' },
  SUBSTITUTE_NOT_FOUND: { status: 404, means: 'unknown substitute of this gig' },
  MAIL_NOT_CONFIGURED: { status: 409, means: 'mail is off: the server has no SMTP_URL' },
  ANSWERS_CLOSED: {
    status: 409,
    means: 'the answer deadline is over or an editor locked the answers (editors still can)'
  },
  MAIL_NOT_FAILED: { status: 409, means: 'only a failed mail can be sent again' },
  CALENDAR_DISABLED: { status: 409, means: 'the calendar feature is switched off' },
  // Songs
  INVALID_KEY: { status: 400, means: 'not a key: a tonic, then m for minor ("Bb", "Gm")' },
  INVALID_GENRE: { status: 400, means: 'not one of the configured genres' },
  INVALID_LINK: { status: 400, means: 'a link that is not an http(s) URL' },
  INVALID_PERSON: { status: 400, means: 'a blank composer, lyricist or arranger' },
  SONG_NOT_PROPOSED: { status: 409, means: 'votes only on proposed songs' },
  CHART_TOO_LARGE: { status: 400, means: 'a chart over 64 KiB of UTF-8' },
  CHART_ENCODING: { status: 400, means: 'a chart that is not valid UTF-8 (U+FFFD in it)' },
  IMPORT_NO_FILES: { status: 400, means: 'a songbook import without a file in `files`' },
  IMPORT_TOO_LARGE: { status: 413, means: 'a songbook import over 20 MiB or 500 files' },
  CHART_EXPANDS_TOO_FAR: {
    status: 400,
    means: 'a chart whose chorus recalls would expand it past the limit (see message)'
  },
  CHARTS_TOO_LARGE: {
    status: 413,
    means: "the gig's charts together pass the limit of one answer (see message)"
  },
  // Rehearsals
  END_BEFORE_START: { status: 400, means: 'the end is not after the start' },
  START_TOO_LATE: { status: 400, means: 'no time left in the day after the start' },
  DUPLICATE_SONG: { status: 400, means: 'the same song twice' },
  UNKNOWN_SONG: { status: 400, means: 'a song id that does not exist' },
  SETLIST_TOO_LONG: { status: 400, means: 'more entries in all than a setlist holds (400)' },
  ENTRY_SONG_OR_TITLE: {
    status: 400,
    means: 'a setlist entry with both or neither of songId and title (a free-text entry)'
  },
  // Surveys
  DUPLICATE_OPTION: { status: 400, means: 'two options with the same label or date' },
  OPTION_NEEDS_LABEL: { status: 400, means: 'a poll option without a label' },
  OPTION_NEEDS_AT: { status: 400, means: 'a date option without `at`' },
  OPTION_AT_NOT_ALLOWED: { status: 400, means: 'a poll option with `at`' },
  CLOSES_AT_IN_PAST: { status: 400, means: '`closesAt` is not in the future' },
  SINGLE_CHOICE: { status: 400, means: 'more than one yes in a single-choice poll' },
  UNKNOWN_OPTION: { status: 400, means: 'an option of another survey' },
  SURVEY_CLOSED: { status: 409, means: 'the survey no longer takes answers' },
  // Gigs, setlists, running order, live mode
  INVALID_GIG_KIND: { status: 400, means: 'not one of the configured gig kinds' },
  SET_NOT_IN_GIG: { status: 400, means: 'a set id of another gig' },
  ENTRY_NOT_IN_GIG: { status: 400, means: 'an entry id of another gig' },
  ITEM_NOT_IN_GIG: { status: 400, means: 'a running-order item of another gig' },
  ENTRY_NOT_IN_SET: { status: 400, means: '`afterEntryId` is not in that set' },
  DUPLICATE_ID: { status: 400, means: 'the same id twice' },
  SONG_RETIRED: { status: 400, means: 'a retired song newly added' },
  SETLIST_VERSION_CONFLICT: { status: 409, means: 'the setlist changed meanwhile (see current)' },
  ENTRY_SKIPPED: { status: 409, means: 'a skipped entry cannot be rated' },
  LIVE_VERSION_CONFLICT: {
    status: 409,
    means: 'the show moved on since the version the tap was made on (see the live view)'
  },
  NOTHING_TO_UNDO: { status: 409, means: 'no tap of this gig is left to undo' },
  SETLIST_EMPTY: { status: 409, means: 'an empty setlist cannot be published' },
  // Checklists, repertoire setlists, exports
  UNKNOWN_USER: { status: 400, means: 'a user id that is no active user' },
  SET_NOT_IN_REPERTOIRE: { status: 400, means: 'a set id of another repertoire setlist' },
  ENTRY_NOT_IN_REPERTOIRE: { status: 400, means: 'an entry id of another repertoire setlist' },
  REPERTOIRE_NAME_TAKEN: { status: 409, means: 'a repertoire setlist of that name exists' },
  EXPORT_TOO_LARGE: {
    status: 409,
    means: 'the database is too large for an export over HTTP, or the archive for a zip'
  },
  // Money
  CURRENCY_MISMATCH: { status: 400, means: "an amount in another currency than the band's" },
  UNKNOWN_FILE: { status: 400, means: 'a receipt that is no file of this gig' },
  MONEY_RULES_INVALID: {
    status: 400,
    means: 'shares over 100 % or over the net, a fee paid to no one, or a percentage with more ' +
      'than two decimals (see message)'
  },
  MONEY_VERSION_CONFLICT: { status: 409, means: "the gig's money changed meanwhile (see current)" },
  GIG_HAS_MONEY: {
    status: 409,
    means: 'the gig has a fee or expenses: delete it with ?withMoney=true to drop them too'
  },
  // Files of songs and gigs
  FILE_NOT_FOUND: { status: 404, means: 'unknown file, or its bytes are missing on disk' },
  INVALID_UPLOAD: {
    status: 400,
    means: 'not one multipart part `file` with valid `title` and `kind` fields, or an empty file'
  },
  FILE_TOO_LARGE: { status: 413, means: 'the file exceeds the limit of its type (see message)' },
  FILES_QUOTA_EXCEEDED: { status: 413, means: "the band's files would exceed FILES_QUOTA_MB" },
  UNSUPPORTED_FILE_TYPE: {
    status: 415,
    means: 'the bytes are of a type Bandstand does not take (the message names the allowed ones)'
  },
  RANGE_NOT_SATISFIABLE: { status: 416, means: 'the Range lies outside the file' }
} as const satisfies Record<string, { status: number; means: string }>

export type ErrorCode = keyof typeof ERROR_CODES

/** The codes that go with one HTTP status. */
export type ErrorCodeOf<Status extends number> = {
  [Code in ErrorCode]: (typeof ERROR_CODES)[Code]['status'] extends Status ? Code : never
}[ErrorCode]
