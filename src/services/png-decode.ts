import { deflateSync as deflate, inflateSync } from 'node:zlib'

export interface RgbaImage {
  width: number
  height: number
  /** 4 bytes per pixel, row-major. */
  pixels: Uint8Array
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }
/** A logo never needs more: larger images are refused rather than inflating unbounded memory. */
const MAX_PIXELS = 16_000_000

/**
 * A small PNG decoder (non-interlaced; all colour types; bit depths 1–16) so the logo's colours can
 * be read without an image dependency. Returns null for anything it does not understand; callers
 * then use the neutral palette. Interlaced (Adam7) images are rare for logos and deliberately not
 * supported.
 */
export function decodePng (data: Buffer): RgbaImage | null {
  try {
    return decode(data)
  } catch {
    return null
  }
}

function decode (data: Buffer): RgbaImage | null {
  if (data.length < 33 || !data.subarray(0, 8).equals(SIGNATURE)) return null
  let offset = 8
  let width = 0
  let height = 0
  let bitDepth = 0
  let colourType = -1
  let interlace = 0
  let palette: Buffer | undefined
  let transparency: Buffer | undefined
  const idat: Buffer[] = []
  while (offset + 8 <= data.length) {
    const length = data.readUInt32BE(offset)
    const type = data.toString('latin1', offset + 4, offset + 8)
    const body = data.subarray(offset + 8, offset + 8 + length)
    offset += 12 + length
    if (type === 'IHDR') {
      width = body.readUInt32BE(0)
      height = body.readUInt32BE(4)
      bitDepth = body[8]!
      colourType = body[9]!
      interlace = body[12]!
    } else if (type === 'PLTE') palette = body
    else if (type === 'tRNS') transparency = body
    else if (type === 'IDAT') idat.push(body)
    else if (type === 'IEND') break
  }
  const channels = CHANNELS[colourType]
  if (!channels || interlace !== 0 || width === 0 || height === 0 || width * height > MAX_PIXELS) {
    return null
  }
  if (![1, 2, 4, 8, 16].includes(bitDepth) || (colourType === 3 && !palette)) return null
  const bitsPerPixel = channels * bitDepth
  const stride = Math.ceil((width * bitsPerPixel) / 8)
  const bpp = Math.max(1, bitsPerPixel >> 3)
  const raw = inflateSync(Buffer.concat(idat))
  if (raw.length < (stride + 1) * height) return null
  const rows = unfilter(raw, stride, height, bpp)
  if (!rows) return null

  const pixels = new Uint8Array(width * height * 4)
  const maxSample = (1 << Math.min(bitDepth, 8)) - 1
  const sample = (row: Uint8Array, index: number): number => {
    if (bitDepth === 8) return row[index]!
    if (bitDepth === 16) return row[index * 2]!
    const bitOffset = index * bitDepth
    const value = (row[bitOffset >> 3]! >> (8 - bitDepth - (bitOffset & 7))) & maxSample
    // Scale low bit depths to 0–255 (not for palette indexes).
    return colourType === 3 ? value : Math.round((value * 255) / maxSample)
  }
  for (let y = 0; y < height; y++) {
    const row = rows.subarray(y * stride, (y + 1) * stride)
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4
      const s = x * channels
      let r: number, g: number, b: number
      let a = 255
      if (colourType === 3) {
        const i = sample(row, s)
        r = palette![i * 3] ?? 0
        g = palette![i * 3 + 1] ?? 0
        b = palette![i * 3 + 2] ?? 0
        a = transparency?.[i] ?? 255
      } else if (colourType === 0 || colourType === 4) {
        r = g = b = sample(row, s)
        if (colourType === 4) a = sample(row, s + 1)
      } else {
        r = sample(row, s)
        g = sample(row, s + 1)
        b = sample(row, s + 2)
        if (colourType === 6) a = sample(row, s + 3)
      }
      pixels[o] = r
      pixels[o + 1] = g
      pixels[o + 2] = b
      pixels[o + 3] = a
    }
  }
  return { width, height, pixels }
}

/** Reverses the per-row PNG filters (None, Sub, Up, Average, Paeth). */
function unfilter (raw: Buffer, stride: number, height: number, bpp: number): Uint8Array | null {
  const out = new Uint8Array(stride * height)
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!
    const src = y * (stride + 1) + 1
    const dst = y * stride
    const prev = dst - stride
    for (let x = 0; x < stride; x++) {
      const value = raw[src + x]!
      const left = x >= bpp ? out[dst + x - bpp]! : 0
      const up = y > 0 ? out[prev + x]! : 0
      const upLeft = y > 0 && x >= bpp ? out[prev + x - bpp]! : 0
      let predicted: number
      switch (filter) {
        case 0:
          predicted = 0
          break
        case 1:
          predicted = left
          break
        case 2:
          predicted = up
          break
        case 3:
          predicted = (left + up) >> 1
          break
        case 4: {
          const p = left + up - upLeft
          const pa = Math.abs(p - left)
          const pb = Math.abs(p - up)
          const pc = Math.abs(p - upLeft)
          predicted = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft
          break
        }
        default:
          return null
      }
      out[dst + x] = (value + predicted) & 0xff
    }
  }
  return out
}

/** Encodes RGBA pixels as an 8-bit RGBA PNG (tests and demo logos). */
export function encodePng (image: RgbaImage): Buffer {
  const { width, height, pixels } = image
  const raw = Buffer.alloc((width * 4 + 1) * height)
  for (let y = 0; y < height; y++) {
    raw[y * (width * 4 + 1)] = 0
    Buffer.from(pixels.buffer, pixels.byteOffset + y * width * 4, width * 4).copy(
      raw,
      y * (width * 4 + 1) + 1
    )
  }
  const chunk = (type: string, body: Buffer) => {
    const head = Buffer.alloc(8)
    head.writeUInt32BE(body.length, 0)
    head.write(type, 4, 'latin1')
    const crc = Buffer.alloc(4)
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), body])), 0)
    return Buffer.concat([head, body, crc])
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr[8] = 8
  ihdr[9] = 6
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflate(raw)),
    chunk('IEND', Buffer.alloc(0))
  ])
}

let crcTable: Uint32Array | undefined
function crc32 (data: Buffer): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256)
    for (let n = 0; n < 256; n++) {
      let c = n
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
      crcTable[n] = c >>> 0
    }
  }
  let crc = 0xffffffff
  for (const byte of data) crc = crcTable[(crc ^ byte) & 0xff]! ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}
