/**
 * Every API error in words a musician understands: by the API's `code` (messages in
 * i18n/<lang>/errors.ts under the code's name), else by HTTP status; 400 `details` become messages
 * next to their fields.
 */
import { ApiFailure } from './api/client'
import { hasMessage, t } from './i18n/index.svelte'

export interface ExplainedError {
  /** One sentence for the whole form or screen. */
  message: string
  /** Field name (as in the request body, e.g. `venue.name`) → message shown next to it. */
  fields: Record<string, string>
}

// Ajv's messages (VALIDATION_ERROR details) mapped to the catalogue; anything else is shown as it
// came.
const VALIDATION_PATTERNS: [RegExp, string][] = [
  [/must NOT have fewer than (\d+) characters/, 'errors.field.tooShort'],
  [/must NOT have more than (\d+) characters/, 'errors.field.tooLong'],
  [/must NOT have fewer than (\d+) items/, 'errors.field.tooFewItems'],
  [/must NOT have more than (\d+) items/, 'errors.field.tooManyItems'],
  [/must be >= (\d+)/, 'errors.field.tooSmall'],
  [/must be <= (\d+)/, 'errors.field.tooLarge'],
  [/must have required property/, 'errors.field.required'],
  [/must match pattern/, 'errors.field.format'],
  [/must match format/, 'errors.field.format'],
  [/must be equal to one of the allowed values/, 'errors.field.choice'],
  [/must be (integer|number)/, 'errors.field.number'],
  [/unknown property/, 'errors.field.unknown']
]

// WEAK_PASSWORD names its reason (src/services/password.ts); each reason has its own message.
const PASSWORD_REASONS: [RegExp, string][] = [
  [/at least (\d+) characters/, 'errors.WEAK_PASSWORD_SHORT'],
  [/at most (\d+) characters/, 'errors.WEAK_PASSWORD_LONG'],
  [/username/, 'errors.WEAK_PASSWORD_USERNAME'],
  [/common/, 'errors.WEAK_PASSWORD_COMMON']
]

function byPattern (text: string, patterns: [RegExp, string][]): string | null {
  for (const [pattern, key] of patterns) {
    const match = pattern.exec(text)
    if (match) return t(key, { n: match[1] ?? '' })
  }
  return null
}

/** The field a detail names, without the request part: `body.venue.name` → `venue.name`. */
function fieldName (field: string): string {
  return field.replace(/^(body|querystring|params)\.?/, '')
}

export function explainError (error: unknown): ExplainedError {
  if (!(error instanceof ApiFailure)) return { message: t('errors.unexpected'), fields: {} }
  const fields: Record<string, string> = {}
  for (const detail of error.details) {
    fields[fieldName(detail.field)] ??=
      byPattern(detail.message, VALIDATION_PATTERNS) ?? detail.message
  }
  let message: string
  if (error.code === 'WEAK_PASSWORD') {
    message = byPattern(error.message, PASSWORD_REASONS) ?? t('errors.WEAK_PASSWORD')
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
