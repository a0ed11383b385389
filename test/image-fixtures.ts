import { constants, crc32, deflateRawSync, deflateSync } from 'node:zlib'
import jpeg from 'jpeg-js'
import pngjs from 'pngjs'
import { ADAM7 } from '#src/documents/logo.js'
import type { Rgb, RgbaImage } from '#src/documents/palette.js'

// Logos for the tests: valid ones written by pngjs and jpeg-js, and the hostile files of the
// security review built chunk by chunk, so that each one is exactly what it claims to
// be: huge headers on tiny files, decompression bombs, broken zlib streams, unknown filters.

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

export function pngChunk (type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(body.length, 0)
  head.write(type, 4, 'latin1')
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), body])), 0)
  return Buffer.concat([head, body, crc])
}

export interface PngHeader {
  width: number
  height: number
  bitDepth?: number
  colourType?: number
  interlace?: 0 | 1
}

/** A PNG from its header and the compressed image data as given (valid or not). */
export function pngFile (
  header: PngHeader,
  idat: Buffer,
  extra: Array<[string, Buffer]> = []
): Buffer {
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(header.width, 0)
  ihdr.writeUInt32BE(header.height, 4)
  ihdr[8] = header.bitDepth ?? 8
  ihdr[9] = header.colourType ?? 6
  ihdr[12] = header.interlace ?? 0
  return Buffer.concat([
    SIGNATURE,
    pngChunk('IHDR', ihdr),
    ...extra.map(([type, body]) => pngChunk(type, body)),
    pngChunk('IDAT', idat),
    pngChunk('IEND', Buffer.alloc(0))
  ])
}

/** An 8-bit RGBA PNG (pngjs). */
export const encodePng = (image: RgbaImage): Buffer =>
  pngjs.PNG.sync.write({
    width: image.width,
    height: image.height,
    data: Buffer.from(image.pixels)
  } as pngjs.PNG)

export const decodePng = (data: Buffer): RgbaImage => {
  const png = pngjs.PNG.sync.read(data)
  return { width: png.width, height: png.height, pixels: png.data }
}

export const encodeJpeg = (image: RgbaImage, quality = 90): Buffer =>
  jpeg.encode({ width: image.width, height: image.height, data: image.pixels }, quality).data

/** Left half `colour`, right half `background`, opaque. */
export function twoColourImage (colour: Rgb, background: Rgb = [255, 255, 255], size = 16) {
  const pixels = new Uint8Array(size * size * 4)
  for (let i = 0; i < size * size; i++) {
    pixels.set(i % size < size / 2 ? [...colour, 255] : [...background, 255], i * 4)
  }
  return { width: size, height: size, pixels }
}

export const twoColourPng = (colour: Rgb, background?: Rgb, size?: number) =>
  encodePng(twoColourImage(colour, background, size))

/**
 * A zlib stream of `mebibytes` MiB of zeros that is about a thousandth of that: one flushed deflate
 * block of 1 MiB of zeros, repeated (back-references only reach zeros), then a final empty block
 * and the right Adler-32, so the stream is even valid.
 */
export function zerosZlib (bytes: number): Buffer {
  const MiB = 1 << 20
  const block = deflateRawSync(Buffer.alloc(MiB), { finishFlush: constants.Z_SYNC_FLUSH })
  const tail = deflateRawSync(Buffer.alloc(bytes % MiB), { finishFlush: constants.Z_FINISH })
  const adler = Buffer.alloc(4)
  // Adler-32 of n zero bytes: A = 1, B = n mod 65521.
  adler.writeUInt32BE((((bytes % 65521) << 16) | 1) >>> 0, 0)
  return Buffer.concat([
    Buffer.from([0x78, 0x9c]),
    ...Array.from({ length: Math.floor(bytes / MiB) }, () => block),
    tail,
    adler
  ])
}

/** Raw (unfiltered) rows for a solid image: filter byte 0, then the pixel repeated. */
function solidRows (width: number, height: number, pixel: number[]): Buffer {
  const row = Buffer.from([0, ...Array.from({ length: width }, () => pixel).flat()])
  return Buffer.concat(Array.from({ length: height }, () => row))
}

/** A valid 16×16 PNG of exactly `bytes` bytes (padded with a text chunk). */
export function pngOfSize (bytes: number): Buffer {
  const idat = deflateSync(solidRows(16, 16, [200, 30, 90, 255]))
  const bare = pngFile({ width: 16, height: 16 }, idat)
  const text = Buffer.alloc(bytes - bare.length - 12, 0x61)
  text.write('Comment\0', 'latin1')
  return pngFile({ width: 16, height: 16 }, idat, [['tEXt', text]])
}

/** An Adam7-interlaced 8-bit RGBA PNG of one colour. */
export function interlacedPng (width: number, height: number, pixel: number[]): Buffer {
  const raw = ADAM7.map(([x0, y0, dx, dy]) => {
    const w = Math.ceil((width - x0) / dx)
    const h = Math.ceil((height - y0) / dy)
    return w > 0 && h > 0 ? solidRows(w, h, pixel) : Buffer.alloc(0)
  })
  return pngFile({ width, height, interlace: 1 }, deflateSync(Buffer.concat(raw)))
}

/** The files of the review, each generated here: name → bytes. */
export function hostileLogos (): Record<string, Buffer> {
  const tinyIdat = deflateSync(Buffer.alloc(3))
  // Filter byte 9 on the first row of an otherwise valid 4×4 image.
  const badFilter = solidRows(4, 4, [1, 2, 3, 255])
  badFilter[0] = 9
  const jpegBomb = encodeJpeg(twoColourImage([200, 30, 90], [255, 255, 255], 8))
  // SOF0 (FF C0): length, precision, then height and width.
  const sof = jpegBomb.indexOf(Buffer.from([0xff, 0xc0]))
  jpegBomb.writeUInt16BE(65_000, sof + 5)
  jpegBomb.writeUInt16BE(65_000, sof + 7)
  return {
    // 68 bytes claiming 20000×20000 (1.6 GB as RGBA).
    'a 68-byte 20000×20000 PNG': pngFile({ width: 20_000, height: 20_000 }, tinyIdat),
    'a 65535×65535 IHDR': pngFile({ width: 65_535, height: 65_535 }, tinyIdat),
    // 1000×1000 is within every limit, but its 2 MB of data (just below the upload limit)
    // inflate to 2 GB.
    'a 2 MB zlib bomb': pngFile({ width: 1000, height: 1000 }, zerosZlib(1990 * (1 << 20))),
    'an interlaced zlib bomb': pngFile(
      { width: 1000, height: 1000, interlace: 1 },
      zerosZlib(1990 * (1 << 20))
    ),
    'bad zlib': pngFile({ width: 4, height: 4 }, Buffer.from('not a zlib stream at all')),
    'filter type 9': pngFile({ width: 4, height: 4 }, deflateSync(badFilter)),
    // A valid, flat 16-bit RGBA image: 128 MB decoded.
    '16-bit 4000×4000': pngFile(
      { width: 4000, height: 4000, bitDepth: 16 },
      zerosZlib((4000 * 8 + 1) * 4000)
    ),
    'a truncated PNG': twoColourPng([200, 30, 90]).subarray(0, 60),
    'a JPEG claiming 65000×65000': jpegBomb,
    'a broken JPEG': Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 7)])
  }
}
