// The texts inside ChordPro directives and lyrics: markup reduced to text, attributes read.

const ENTITIES: Record<string, string> = {
  '&lt;': '<',
  '&gt;': '>',
  '&amp;': '&',
  '&quot;': '"',
  '&apos;': "'"
}

// ChordPro markup is Pango's: `<b>`, `<span foreground="red">`, `<img src="…"/>`. Only what looks
// like a tag is dropped, so "a < b" in a lyric stays.
const TAG = /<\/?[A-Za-z][A-Za-z0-9_-]*(?:\s[^<>]*)?\/?>/g
const ENTITY = /&(?:lt|gt|amp|quot|apos);/g

/** Markup reduced to its text: tags dropped, the five XML entities read. Never rendered as HTML. */
export function plainText (text: string): string {
  if (!text.includes('<') && !text.includes('&')) return text
  return text.replace(TAG, '').replace(ENTITY, (e) => ENTITIES[e] ?? e)
}

/** Text as markup again: what plainText reads back unchanged (for the printer). */
export const markupText = (text: string): string =>
  text.includes('<') || text.includes('&') || text.includes('>')
    ? text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
    : text

const ATTRIBUTE = /([A-Za-z_][A-Za-z0-9_-]*)\s*=\s*(?:"([^"]*)"|'([^']*)'|(\S+))/g

/** `label="Chorus 2" shape="1+4x2"`: the attributes; null when the value is no attribute list. */
export function attributes (value: string): Record<string, string> | null {
  if (!/^[A-Za-z_][A-Za-z0-9_-]*\s*=/.test(value)) return null
  const found: Record<string, string> = {}
  for (const m of value.matchAll(ATTRIBUTE)) found[m[1]!.toLowerCase()] = m[2] ?? m[3] ?? m[4] ?? ''
  return found
}

/**
 * A section's label: `label="Chorus 2"` (ChordPro 6) or a plain label after the colon; a grid's
 * plain value is its shape (`{start_of_grid 1+4x2+4}`), no label.
 */
export function sectionLabel (value: string | undefined, grid = false): string | null {
  if (!value) return null
  const attrs = attributes(value)
  if (!attrs && grid && /^[\d+x\s]+$/.test(value)) return null
  const label = plainText(attrs ? (attrs.label ?? '') : value).trim()
  return label === '' ? null : label
}
