/**
 * Every API error in words a musician understands: by the API's `code` (messages in
 * i18n/<lang>/errors.ts under the code's name), else by HTTP status; 400 `details` become messages
 * next to their fields, chosen by Ajv's `keyword` and `params` (never by the English text).
 */
import { ApiFailure, type ApiErrorDetail } from './api/client'
import { hasMessage, t } from './i18n/index.svelte'
import { PASSWORD_LIMITS } from '$shared/limits'

export interface ExplainedError {
  /** One sentence for the whole form or screen. */
  message: string
  /** Field name (as in the request body, e.g. `venue.name`) → message shown next to it. */
  fields: Record<string, string>
}

// Ajv's keyword of a VALIDATION_ERROR detail → catalogue key, and the Ajv param that fills `{n}`.
// A keyword not listed here is shown in the server's words (`message`).
const BY_KEYWORD: Record<string, { key: string; n?: string }> = {
  minLength: { key: 'errors.field.tooShort', n: 'limit' },
  maxLength: { key: 'errors.field.tooLong', n: 'limit' },
  minItems: { key: 'errors.field.tooFewItems', n: 'limit' },
  maxItems: { key: 'errors.field.tooManyItems', n: 'limit' },
  minimum: { key: 'errors.field.tooSmall', n: 'limit' },
  maximum: { key: 'errors.field.tooLarge', n: 'limit' },
  required: { key: 'errors.field.required' },
  pattern: { key: 'errors.field.format' },
  format: { key: 'errors.field.format' },
  enum: { key: 'errors.field.choice' },
  additionalProperties: { key: 'errors.field.unknown' },
  uniqueItems: { key: 'errors.field.duplicates' }
}

/** The message next to a field: by Ajv's keyword and params, else the server's text. */
function fieldMessage (detail: ApiErrorDetail): string {
  const params = detail.params ?? {}
  // `type` says "a whole number" only for numbers; for other types ("must be a finite number",
  // "must be string") the server's text is more precise than a guess.
  if (detail.keyword === 'type') {
    return params.type === 'integer' || params.type === 'number'
      ? t('errors.field.number')
      : detail.message
  }
  const known = detail.keyword === undefined ? undefined : BY_KEYWORD[detail.keyword]
  if (!known) return detail.message
  const n = known.n === undefined ? undefined : params[known.n]
  return t(known.key, { n: typeof n === 'number' || typeof n === 'string' ? n : '' })
}

// WEAK_PASSWORD's `reason` code (src/auth/password.ts) → its message; another reason
// (`unchanged`, or one added later) gets the general one. `too_similar` is the name the issue's
// agreed shape gave as an example for `contains_username`.
const PASSWORD_REASONS: Record<string, [string, number?]> = {
  too_short: ['errors.WEAK_PASSWORD_SHORT', PASSWORD_LIMITS.min],
  too_long: ['errors.WEAK_PASSWORD_LONG', PASSWORD_LIMITS.max],
  contains_username: ['errors.WEAK_PASSWORD_USERNAME'],
  too_similar: ['errors.WEAK_PASSWORD_USERNAME'],
  too_common: ['errors.WEAK_PASSWORD_COMMON']
}

function passwordMessage (reason: string | null): string {
  const known = reason === null ? undefined : PASSWORD_REASONS[reason]
  if (!known) return t('errors.WEAK_PASSWORD')
  return t(known[0], { n: known[1] ?? '' })
}

/** The field a detail names, without the request part: `body.venue.name` → `venue.name`. */
function fieldName (field: string): string {
  return field.replace(/^(body|querystring|params)\.?/, '')
}

export function explainError (error: unknown): ExplainedError {
  if (!(error instanceof ApiFailure)) return { message: t('errors.unexpected'), fields: {} }
  const fields: Record<string, string> = {}
  for (const detail of error.details) {
    fields[fieldName(detail.field)] ??= fieldMessage(detail)
  }
  let message: string
  if (error.code === 'WEAK_PASSWORD') {
    message = passwordMessage(error.reason)
  } else if (error.code === 'RATE_LIMITED') {
    const seconds = error.retryAfter ?? 60
    message =
      seconds >= 90
        ? t('errors.RATE_LIMITED_MINUTES', { count: Math.ceil(seconds / 60) })
        : t('errors.RATE_LIMITED', { count: seconds })
  } else if (hasMessage(`errors.${error.code}`)) {
    message = t(`errors.${error.code}`)
  } else if (hasMessage(`errors.status${error.status}`)) {
    message = t(`errors.status${error.status}`)
  } else {
    message = error.status >= 500 ? t('errors.status500') : t('errors.unexpected')
  }
  if (error.code === 'VALIDATION_ERROR' && Object.keys(fields).length > 0) {
    message = t('errors.VALIDATION_ERROR')
  }
  return { message, fields }
}
