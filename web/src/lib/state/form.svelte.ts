import { ApiFailure } from '../api/client'
import { explainError } from '../errors'
import { t } from '../i18n/index.svelte'
import { announce } from './announcer.svelte'

/**
 * A form's submit state. `submit(action)` runs the API call; on an error it keeps every value the
 * user typed (the values live in the screen's own state, untouched here) and shows the message
 * above the form and the 400 details next to their fields: `form.fields['venue.name']`.
 * Errors that name no field but belong to one (`INVALID_TIMEZONE`, `WEAK_PASSWORD`) are shown next
 * to it too: `new FormState({ INVALID_TIMEZONE: 'timezone' })`.
 */
export class FormState {
  busy = $state(false)
  error = $state('')
  fields = $state<Record<string, string>>({})
  #codeFields: Record<string, string>

  constructor (codeFields: Record<string, string> = {}) {
    this.#codeFields = codeFields
  }

  async submit (action: () => Promise<void>, success?: string): Promise<boolean> {
    if (this.busy) return false
    this.busy = true
    this.error = ''
    this.fields = {}
    try {
      await action()
      if (success) announce(success)
      return true
    } catch (error) {
      const explained = explainError(error)
      this.error = explained.message
      const field = error instanceof ApiFailure ? this.#codeFields[error.code] : undefined
      this.fields = field
        ? { [field]: explained.message, ...explained.fields }
        : explained.fields
      return false
    } finally {
      this.busy = false
    }
  }

  /**
   * The message for a list typed one entry per line: the list's own, or its first entry's
   * (`genres.3` → "Line 4: …").
   */
  listError (name: string): string {
    if (this.fields[name]) return this.fields[name]
    const entry = Object.entries(this.fields).find(([field]) => field.startsWith(`${name}.`))
    if (!entry) return ''
    const line = Number(entry[0].slice(name.length + 1).split('.')[0]) + 1
    return t('errors.field.line', { line, message: entry[1] })
  }

  /** A client-side check before sending: shows `key`'s message next to `field`. */
  invalid (field: string, key: string, params: Record<string, string | number> = {}): false {
    this.fields = { ...this.fields, [field]: t(key, params) }
    this.error = t('errors.VALIDATION_ERROR')
    return false
  }
}
