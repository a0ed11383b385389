import { crc32, inflateRawSync } from 'node:zlib'
import type { ImportRefusalReason } from '#shared/enums.js'

// Reading an uploaded .zip without trusting it. The central directory names the entries; each
// entry is inflated with zlib's `maxOutputLength`, so a bomb stops after `maxEntryBytes` whatever
// its header declares (fflate's unzip trusts the declared size: a lying header costs the whole
// expansion in time), and the CRC is checked. Nothing is written to disk.

export interface ZipEntry {
  name: string
  /** The entry's bytes; absent when it was refused. */
  data?: Buffer
  refused?: Refusal
}

export interface Refusal { reason: ImportRefusalReason; message: string }

export interface ZipLimits {
  /** An entry expanding to more is refused (too_large), never expanded further. */
  maxEntryBytes: number
  maxEntries: number
  /** What all entries may expand to together; those after it are refused. */
  maxTotalBytes: number
  /** Why an entry is not wanted (by its name), before it is expanded; null: wanted. */
  refuse: (name: string) => Refusal | null
}

export class ZipError extends Error {}

const EOCD = 0x06054b50
const CENTRAL = 0x02014b50
const LOCAL = 0x04034b50

/**
 * A name is safe when it stays inside the archive on every system: no absolute path, drive letter,
 * `..` part, backslash, control character or NUL.
 */
// eslint-disable-next-line no-control-regex -- control characters are what is refused
const UNSAFE = /(^|[/\\])\.\.([/\\]|$)|^[/\\]|^[A-Za-z]:|\\|[\u0000-\u001f]/

function endOfCentralDirectory (zip: Buffer): number {
  // The record is 22 bytes plus a comment of at most 65,535.
  const lowest = Math.max(0, zip.length - 22 - 0xffff)
  for (let at = zip.length - 22; at >= lowest; at--) {
    if (zip.readUInt32LE(at) === EOCD) return at
  }
  throw new ZipError('no zip central directory found')
}

/**
 * The files of a zip archive (directories left out), each inflated to at most `maxEntryBytes`
 * (a larger one refused as too_large); at most `maxEntries`. Throws ZipError when the archive
 * cannot be read at all.
 */
export function readZip (zip: Buffer, limits: ZipLimits): ZipEntry[] {
  const { maxEntries } = limits
  if (zip.length < 22) throw new ZipError('too short for a zip archive')
  const end = endOfCentralDirectory(zip)
  const count = zip.readUInt16LE(end + 10)
  let at = zip.readUInt32LE(end + 16)
  if (count === 0xffff || at === 0xffffffff) throw new ZipError('zip64 archives are not read')
  if (count > maxEntries) throw new ZipError(`more than ${maxEntries} entries`)
  const entries: ZipEntry[] = []
  let total = 0
  for (let i = 0; i < count; i++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== CENTRAL) {
      throw new ZipError('broken central directory')
    }
    const flags = zip.readUInt16LE(at + 8)
    const method = zip.readUInt16LE(at + 10)
    const crc = zip.readUInt32LE(at + 16)
    const compressed = zip.readUInt32LE(at + 20)
    const nameLength = zip.readUInt16LE(at + 28)
    const extraLength = zip.readUInt16LE(at + 30)
    const commentLength = zip.readUInt16LE(at + 32)
    const local = zip.readUInt32LE(at + 42)
    // Bit 11: the name is UTF-8; otherwise code page 437, read here as Latin-1.
    const name = zip.subarray(at + 46, at + 46 + nameLength)
      .toString(flags & 0x800 ? 'utf8' : 'latin1')
    at += 46 + nameLength + extraLength + commentLength
    if (name.endsWith('/')) continue
    const refused = UNSAFE.test(name)
      ? { reason: 'unsafe_name' as const, message: 'a path outside the archive' }
      : limits.refuse(name)
    if (refused) {
      entries.push({ name, refused })
      continue
    }
    const budget = Math.min(limits.maxEntryBytes, limits.maxTotalBytes - total)
    const read = entry(zip, { name, flags, method, crc, compressed, local }, budget)
    if (read.refused?.reason === 'too_large' && budget < limits.maxEntryBytes) {
      read.refused.message = `the archive expands to more than ${limits.maxTotalBytes} bytes`
    }
    total += read.data?.length ?? 0
    entries.push(read)
  }
  return entries
}

interface Header {
  name: string
  flags: number
  method: number
  crc: number
  compressed: number
  local: number
}

function entry (zip: Buffer, h: Header, maxBytes: number): ZipEntry {
  const { name } = h
  const broken = (message: string): ZipEntry =>
    ({ name, refused: { reason: 'broken_archive', message } })
  if (h.flags & 0x1) return broken('encrypted')
  if (h.local + 30 > zip.length || zip.readUInt32LE(h.local) !== LOCAL) return broken('no entry')
  const start = h.local + 30 + zip.readUInt16LE(h.local + 26) + zip.readUInt16LE(h.local + 28)
  if (start + h.compressed > zip.length) return broken('cut short')
  const raw = zip.subarray(start, start + h.compressed)
  let data: Buffer
  if (h.method === 0) {
    data = raw
  } else if (h.method === 8) {
    try {
      data = inflateRawSync(raw, { maxOutputLength: maxBytes + 1 })
    } catch (error) {
      const code = (error as { code?: string }).code
      if (code === 'ERR_BUFFER_TOO_LARGE') return tooLarge(name, maxBytes)
      return broken('not readable')
    }
  } else {
    return broken(`compression method ${h.method} is not read`)
  }
  if (data.length > maxBytes) return tooLarge(name, maxBytes)
  if (crc32(data) !== h.crc) return broken('checksum mismatch')
  return { name, data }
}

const tooLarge = (name: string, maxBytes: number): ZipEntry => ({
  name,
  refused: { reason: 'too_large', message: `expands to more than ${maxBytes} bytes` }
})
