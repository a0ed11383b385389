import { keyString, parseKey } from '#shared/keys.js'
import type { SourceValue } from './source.js'
import { cleanText } from './values.js'

/**
 * A key as typed in libreStage (`C`, `Am`, `F#m`, `Bb`, `fis-Moll`, `Es-Dur`, `h`) → Bandstand's
 * canonical key (`F#m`, `Bm`), read by the same parser as the API and the migration. libreStage is
 * German: a bare `B` is B flat, `H` is B natural. Null for no key, undefined when not a key.
 */
export function mapKey (value: SourceValue | undefined): string | null | undefined {
  const text = cleanText(value)
  if (text === null) return null
  const key = parseKey(text, 'german')
  return key ? keyString(key) : undefined
}
