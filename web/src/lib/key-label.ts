// Keys in the reader's language: the web app's side of src/shared/keys.ts.
import { showKey } from '$shared/keys'
import { i18n } from '$lib/i18n/index.svelte'

/**
 * A song's stored key as this reader writes it ("B♭ major" / "B-Dur"; short: "B♭" / "Gm");
 * an old key that could not be read as written; '' for none.
 */
export const keyLabel = (stored: string | null | undefined, style: 'long' | 'short' = 'long') =>
  showKey(stored, i18n.language, style) ?? ''
