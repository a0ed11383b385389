import { crc32, deflateRawSync, constants } from 'node:zlib'
import { zipSync } from 'fflate'

// Multipart bodies and zip archives for the songbook import's tests.

export interface Upload { name: string; data: Buffer | string; field?: string }

/** A multipart/form-data body with these files (field `files` unless told). */
export function multipart (files: Upload[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = '----bandstand-test-boundary'
  const parts: Buffer[] = []
  for (const file of files) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; ` +
      `name="${file.field ?? 'files'}"; filename="${file.name}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n'))
    parts.push(Buffer.isBuffer(file.data) ? file.data : Buffer.from(file.data, 'utf8'))
    parts.push(Buffer.from('\r\n'))
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`))
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }
  }
}

/** A zip archive (deflated) of these files, names as given: `../` too. */
export const zip = (files: Record<string, string | Uint8Array>): Buffer =>
  Buffer.from(zipSync(Object.fromEntries(Object.entries(files).map(([name, data]) =>
    [name, typeof data === 'string' ? new TextEncoder().encode(data) : data]))))

/**
 * A zip whose one entry expands to `gigabytes` GB of zeros (about 1 MB of deflate per GB), its
 * header claiming 1 KB: one block of 1 MiB zeros deflated with a full flush (self-contained and
 * byte-aligned), repeated, then an empty final block.
 */
export function bombZip (name: string, gigabytes = 1): Buffer {
  const block = deflateRawSync(Buffer.alloc(1024 * 1024), { finishFlush: constants.Z_FULL_FLUSH })
  const final = deflateRawSync(Buffer.alloc(0))
  const data = Buffer.concat([...Array<Buffer>(1024 * gigabytes).fill(block), final])
  const nameBytes = Buffer.from(name)
  const local = Buffer.alloc(30)
  local.writeUInt32LE(0x04034b50, 0)
  local.writeUInt16LE(20, 4)
  local.writeUInt16LE(8, 8)
  local.writeUInt32LE(crc32(Buffer.alloc(1024)), 14)
  local.writeUInt32LE(data.length, 18)
  local.writeUInt32LE(1024, 22)
  local.writeUInt16LE(nameBytes.length, 26)
  const central = Buffer.alloc(46)
  central.writeUInt32LE(0x02014b50, 0)
  central.writeUInt16LE(20, 4)
  central.writeUInt16LE(20, 6)
  central.writeUInt16LE(8, 10)
  central.writeUInt32LE(crc32(Buffer.alloc(1024)), 16)
  central.writeUInt32LE(data.length, 20)
  central.writeUInt32LE(1024, 24)
  central.writeUInt16LE(nameBytes.length, 28)
  central.writeUInt32LE(0, 42)
  const centralAt = local.length + nameBytes.length + data.length
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(1, 8)
  end.writeUInt16LE(1, 10)
  end.writeUInt32LE(central.length + nameBytes.length, 12)
  end.writeUInt32LE(centralAt, 16)
  return Buffer.concat([local, nameBytes, data, central, nameBytes, end])
}
