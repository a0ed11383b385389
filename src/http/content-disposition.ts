// Download file names (RFC 6266): an ASCII `filename` for old clients plus `filename*` (RFC 8187,
// UTF-8) so umlauts survive.

const TRANSLITERATION: Record<string, string> = {
  ä: 'ae',
  ö: 'oe',
  ü: 'ue',
  Ä: 'Ae',
  Ö: 'Oe',
  Ü: 'Ue',
  ß: 'ss',
  ẞ: 'SS'
}

/**
 * Plain ASCII: German transliteration, accents stripped, anything else that is unsafe becomes `_`.
 */
export function asciiFilename (name: string): string {
  return name
    .replace(/[äöüÄÖÜßẞ]/g, (c) => TRANSLITERATION[c] ?? c)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]|["\\/%;]/g, '_')
}

/** RFC 8187 value-chars: everything outside attr-char is percent-encoded. */
const encodeRfc8187 = (value: string) =>
  encodeURIComponent(value).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`
  )

export function contentDisposition (type: 'inline' | 'attachment', filename: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is replaced
  const safe = filename.replace(/[\u0000-\u001f\u007f/\\]/g, '_')
  const ascii = asciiFilename(safe)
  return ascii === safe
    ? `${type}; filename="${ascii}"`
    : `${type}; filename="${ascii}"; filename*=UTF-8''${encodeRfc8187(safe)}`
}

/**
 * A file-name part from free text: letters (umlauts kept) and digits, runs of anything else → `-`.
 */
export function slug (text: string, maxLength = 60): string {
  const cleaned = text
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
  return [...cleaned].slice(0, maxLength).join('').replace(/-+$/, '') || 'gig'
}
