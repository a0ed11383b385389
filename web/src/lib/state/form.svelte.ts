import { tick } from 'svelte'
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
 * On every failed submit (and every `invalid()` check) focus moves to the first invalid field of
 * the form, else to its error message: the message may be far above the Save button.
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
    // Taken now: the disabled submit button loses focus while the request runs.
    const scope = submittingForm()
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
      void focusFirstError(scope)
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
    void focusFirstError(submittingForm())
    return false
  }
}

/** The form being submitted: the one holding the focused submit button or input. */
function submittingForm (): HTMLElement | null {
  if (typeof document === 'undefined') return null
  const active = document.activeElement
  const owner = active && 'form' in active ? (active.form as HTMLFormElement | null) : null
  return owner ?? active?.closest('form') ?? document.querySelector('main')
}

/**
 * After the messages are rendered: the first field marked invalid, else the form's message
 * (FormError, `data-form-error`) — inside the form or above it — gets focus and is scrolled to.
 */
async function focusFirstError (scope: HTMLElement | null): Promise<void> {
  await tick()
  if (!scope?.isConnected) return
  let target = scope.querySelector<HTMLElement>('[aria-invalid="true"]:not([disabled])')
  for (let node: HTMLElement | null = scope; !target && node; node = node.parentElement) {
    target = node.querySelector<HTMLElement>('[data-form-error]')
  }
  if (!target) return
  target.focus({ preventScroll: true })
  target.scrollIntoView({ block: 'center' })
}
