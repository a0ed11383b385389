import { explainError } from '../errors'
import { t } from '../i18n/index.svelte'
import { announce } from './announcer.svelte'

/**
 * A form's submit state. `submit(action)` runs the API call; on an error it keeps every value the
 * user typed (the values live in the screen's own state, untouched here) and shows the message
 * above the form and the 400 details next to their fields: `form.fields['venue.name']`.
 */
export class FormState {
  busy = $state(false)
  error = $state('')
  fields = $state<Record<string, string>>({})

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
      this.fields = explained.fields
      return false
    } finally {
      this.busy = false
    }
  }

  /** A client-side check before sending: shows `key`'s message next to `field`. */
  invalid (field: string, key: string, params: Record<string, string | number> = {}): false {
    this.fields = { ...this.fields, [field]: t(key, params) }
    this.error = t('errors.VALIDATION_ERROR')
    return false
  }
}
