// File names for charts in an archive that every system can unpack: Windows forbids
// `<>:"/\|?*`, control characters, names ending in a dot or a space and the device names (CON,
// NUL, COM1 …); macOS and Windows do not tell upper from lower case; names stay short.

// eslint-disable-next-line no-control-regex -- control characters are what is replaced
const FORBIDDEN = /[<>:"/\\|?*\u0000-\u001f\u007f]/g
const DEVICE = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i
/** Characters of a name before its extension: well within every system's 255 bytes. */
const MAX_STEM = 120

/** `stem` as a safe file name stem (never empty). */
export function safeStem (stem: string): string {
  let safe = stem.normalize('NFC').replace(FORBIDDEN, '_').replace(/\s+/g, ' ').trim()
  safe = [...safe].slice(0, MAX_STEM).join('').replace(/[. ]+$/, '')
  if (safe === '' || /^\.+$/.test(safe)) safe = 'Untitled'
  return DEVICE.test(safe) ? `_${safe}` : safe
}

/** Hands out safe names, a number added where two would be the same on a case-blind system. */
export function uniqueNames (): (stem: string, extension: string) => string {
  const taken = new Set<string>()
  return (stem, extension) => {
    const base = safeStem(stem)
    let name = `${base}${extension}`
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base} (${n})${extension}`
    taken.add(name.toLowerCase())
    return name
  }
}
