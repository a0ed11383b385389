/** One byte range of a file, both ends included (as `Content-Range` and createReadStream take). */
export interface ByteRange {
  start: number
  end: number
}

const SPEC = /^(\d*)-(\d*)$/

/**
 * A `Range` header against a file of `size` bytes (RFC 9110 §14): one range, `bytes=a-b`,
 * `bytes=a-` or a suffix `bytes=-n`. undefined means "send the whole file": a header that is not a
 * byte range, or several ranges (a player seeks with one at a time; the RFC lets a server ignore
 * Range). 'unsatisfiable' when the range begins past the end (416).
 */
export function parseRange (header: string, size: number): ByteRange | 'unsatisfiable' | undefined {
  const match = /^bytes=(.+)$/i.exec(header.trim())
  if (!match || match[1]!.includes(',')) return undefined
  const spec = SPEC.exec(match[1]!.trim())
  if (!spec || (spec[1] === '' && spec[2] === '')) return undefined
  if (spec[1] === '') {
    const suffix = Number(spec[2])
    if (suffix === 0 || size === 0) return 'unsatisfiable'
    return { start: Math.max(0, size - suffix), end: size - 1 }
  }
  const start = Number(spec[1])
  const end = spec[2] === '' ? size - 1 : Number(spec[2])
  if (start >= size) return 'unsatisfiable'
  if (end < start) return undefined
  return { start, end: Math.min(end, size - 1) }
}
