import { inflateSync } from 'node:zlib'
import jpeg from 'jpeg-js'
import pngjs from 'pngjs'
import { dominantAccent, hex, type RgbaImage } from './palette.js'

// The band logo is checked, decoded and prepared once, when it is uploaded (in a document worker,
// see pool.ts): documents then only embed the small prepared copy and use the stored
// accent colour. PNG is decoded by pngjs, JPEG by jpeg-js (both plain JavaScript, no native build;
// docs/api.md → App configuration says why not sharp). Limits are checked from the header before
// anything is inflated, so a 68-byte file claiming 20000×20000 pixels costs nothing.

export type LogoMime = 'image/png' | 'image/jpeg'

/** Longest side a logo may have. */
export const LOGO_MAX_SIDE = 4096
/**
 * Decoded size a logo may have: the inflated PNG data and the RGBA image each (16 MiB: 4
 * megapixels, e.g. 2048×2048 or 4096×1024). Decoding holds a few such buffers at once, so this
 * keeps one upload below ~+70 MB of memory.
 */
export const LOGO_MAX_DECODED_BYTES = 16 * 1024 * 1024
/**
 * The watermark is printed 360 pt (12.7 cm) wide at 7 % opacity: 512 pixels are ~100 dpi there.
 */
export const WATERMARK_MAX_SIDE = 512

export type LogoRefusal = 'UNSUPPORTED_IMAGE' | 'INVALID_IMAGE' | 'IMAGE_TOO_LARGE'

export type PreparedLogo =
  | {
    ok: true
    mimeType: LogoMime
    width: number
    height: number
    /** The accent colour for documents (`#rrggbb`), null for a logo without a saturated colour. */
    accent: string | null
    /** The logo downscaled and flattened onto white, as an 8-bit RGB PNG. */
    watermark: Buffer
  }
  | { ok: false; code: LogoRefusal; message: string }

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }
/** Adam7 interlacing passes: first column and row, column and row step. */
export const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2]
] as const

class Refused extends Error {
  constructor (
    readonly code: LogoRefusal,
    message: string
  ) {
    super(message)
  }
}

const mebibytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`

/**
 * The image type from the bytes themselves, never from the file name or Content-Type: a PNG starts
 * with its 8-byte signature followed by the IHDR chunk, a JPEG with the SOI marker and another
 * marker.
 */
export function sniffImage (data: Buffer): LogoMime | null {
  if (
    data.length >= 24 &&
    data.subarray(0, 8).equals(PNG_SIGNATURE) &&
    data.toString('latin1', 12, 16) === 'IHDR'
  ) {
    return 'image/png'
  }
  if (data.length >= 4 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) {
    return 'image/jpeg'
  }
  return null
}

function checkSides (width: number, height: number): void {
  if (width === 0 || height === 0) throw new Refused('INVALID_IMAGE', 'the image has no pixels')
  if (width > LOGO_MAX_SIDE || height > LOGO_MAX_SIDE) {
    throw new Refused(
      'IMAGE_TOO_LARGE',
      `the image is ${width}×${height} pixels; at most ${LOGO_MAX_SIDE}×${LOGO_MAX_SIDE} ` +
        'are allowed'
    )
  }
  if (width * height * 4 > LOGO_MAX_DECODED_BYTES) {
    throw new Refused(
      'IMAGE_TOO_LARGE',
      `the image is ${width}×${height} pixels, ${mebibytes(width * height * 4)} decoded; at most ` +
        `${mebibytes(LOGO_MAX_DECODED_BYTES)} (4 megapixels, e.g. 2048×2048) are allowed`
    )
  }
}

/** Bytes of the inflated image data a PNG header promises (one filter byte per row). */
function pngDataBytes (width: number, height: number, bitsPerPixel: number, interlaced: boolean) {
  const rows = (w: number, h: number) =>
    w > 0 && h > 0 ? (Math.ceil((w * bitsPerPixel) / 8) + 1) * h : 0
  if (!interlaced) return rows(width, height)
  return ADAM7.reduce(
    (sum, [x0, y0, dx, dy]) =>
      sum + rows(Math.ceil((width - x0) / dx), Math.ceil((height - y0) / dy)),
    0
  )
}

function decodePng (data: Buffer): RgbaImage {
  if (data.length < 33) throw new Refused('INVALID_IMAGE', 'the PNG is truncated')
  const width = data.readUInt32BE(16)
  const height = data.readUInt32BE(20)
  const channels = PNG_CHANNELS[data[25]!]
  const depth = data[24]!
  if (!channels || ![1, 2, 4, 8, 16].includes(depth)) {
    throw new Refused('INVALID_IMAGE', 'the PNG header names no valid colour type and bit depth')
  }
  checkSides(width, height)
  const pixelBytes = Math.ceil((width * channels * depth) / 8) * height
  if (pixelBytes > LOGO_MAX_DECODED_BYTES) {
    throw new Refused(
      'IMAGE_TOO_LARGE',
      `the image data is ${mebibytes(pixelBytes)} decoded (${width}×${height}, ${depth}-bit); ` +
        `at most ${mebibytes(LOGO_MAX_DECODED_BYTES)} are allowed`
    )
  }
  const expected = pngDataBytes(width, height, channels * depth, data[28] === 1)
  // The compressed data is inflated once with a hard limit before pngjs sees it: pngjs inflates
  // interlaced images without one, and a zlib bomb must never get further than this.
  const compressed: Buffer[] = []
  for (let offset = 8; offset + 12 <= data.length;) {
    const length = data.readUInt32BE(offset)
    const type = data.toString('latin1', offset + 4, offset + 8)
    if (offset + 12 + length > data.length) break
    if (type === 'IDAT') compressed.push(data.subarray(offset + 8, offset + 8 + length))
    if (type === 'IEND') break
    offset += 12 + length
  }
  try {
    inflateSync(Buffer.concat(compressed), { maxOutputLength: expected })
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new Refused(
        'IMAGE_TOO_LARGE',
        `the compressed data inflates to more than the ${mebibytes(expected)} a ` +
          `${width}×${height} image needs (a decompression bomb)`
      )
    }
    throw new Refused('INVALID_IMAGE', `the PNG is damaged: ${(error as Error).message}`)
  }
  try {
    const png = pngjs.PNG.sync.read(data)
    return { width: png.width, height: png.height, pixels: png.data }
  } catch (error) {
    throw new Refused('INVALID_IMAGE', `the PNG is damaged: ${(error as Error).message}`)
  }
}

function decodeJpeg (data: Buffer): RgbaImage {
  let image: { width: number; height: number; data: Uint8Array }
  try {
    image = jpeg.decode(data, {
      useTArray: true,
      formatAsRGBA: true,
      // jpeg-js checks both before it allocates the image.
      maxResolutionInMP: LOGO_MAX_DECODED_BYTES / 4 / 1e6,
      maxMemoryUsageInMB: 64
    })
  } catch (error) {
    const message = (error as Error).message
    if (/maxResolutionInMP|maxMemoryUsageInMB/.test(message)) {
      throw new Refused(
        'IMAGE_TOO_LARGE',
        `the JPEG decodes to more than ${mebibytes(LOGO_MAX_DECODED_BYTES)} ` +
          '(4 megapixels, e.g. 2048×2048)'
      )
    }
    throw new Refused('INVALID_IMAGE', `the JPEG is damaged: ${message}`)
  }
  checkSides(image.width, image.height)
  return { width: image.width, height: image.height, pixels: image.data }
}

/**
 * At most `maxSide` pixels on the longest side: every source pixel is added to the target pixel it
 * falls into (a box filter), colours weighted by their alpha.
 */
export function downscale (image: RgbaImage, maxSide: number): RgbaImage {
  const { width, height, pixels } = image
  const scale = Math.min(1, maxSide / Math.max(width, height))
  if (scale === 1) return image
  const w = Math.max(1, Math.round(width * scale))
  const h = Math.max(1, Math.round(height * scale))
  // Per target pixel: red, green, blue (each times alpha), alpha, count. A box holds at most
  // (4096 / 512)² pixels, so the sums fit 32 bits.
  const sums = new Uint32Array(w * h * 5)
  for (let y = 0; y < height; y++) {
    const row = Math.min(h - 1, Math.floor((y * h) / height)) * w
    for (let x = 0; x < width; x++) {
      const s = (y * width + x) * 4
      const t = (row + Math.min(w - 1, Math.floor((x * w) / width))) * 5
      const alpha = pixels[s + 3]!
      sums[t]! += pixels[s]! * alpha
      sums[t + 1]! += pixels[s + 1]! * alpha
      sums[t + 2]! += pixels[s + 2]! * alpha
      sums[t + 3]! += alpha
      sums[t + 4]!++
    }
  }
  const out = new Uint8Array(w * h * 4)
  for (let i = 0; i < w * h; i++) {
    const alpha = sums[i * 5 + 3]!
    for (let c = 0; c < 3; c++) out[i * 4 + c] = alpha ? Math.round(sums[i * 5 + c]! / alpha) : 0
    out[i * 4 + 3] = Math.round(alpha / sums[i * 5 + 4]!)
  }
  return { width: w, height: h, pixels: out }
}

/** An 8-bit RGB PNG, flattened onto white (the page colour). */
function encodeWatermark ({ width, height, pixels }: RgbaImage): Buffer {
  const data = Buffer.from(pixels.buffer, pixels.byteOffset, pixels.byteLength)
  return pngjs.PNG.sync.write({ width, height, data } as pngjs.PNG, {
    colorType: 2,
    inputColorType: 6,
    inputHasAlpha: true
  })
}

/**
 * Checks and prepares an uploaded logo: its type from the bytes, its size from the header (at most
 * LOGO_MAX_SIDE per side and LOGO_MAX_DECODED_BYTES decoded), then decodes it once for the accent
 * colour and the watermark (downscaled to WATERMARK_MAX_SIDE, flattened onto white: pdfkit embeds
 * an RGB PNG as it is, without decoding it for every document). Never throws for bad input: a
 * refusal names the reason.
 */
export function prepareLogo (data: Buffer): PreparedLogo {
  const mimeType = sniffImage(data)
  if (!mimeType) {
    return { ok: false, code: 'UNSUPPORTED_IMAGE', message: 'the logo must be a PNG or JPEG image' }
  }
  try {
    const image = mimeType === 'image/png' ? decodePng(data) : decodeJpeg(data)
    const accent = dominantAccent(image)
    const watermark = encodeWatermark(downscale(image, WATERMARK_MAX_SIDE))
    return {
      ok: true,
      mimeType,
      width: image.width,
      height: image.height,
      accent: accent ? hex(accent) : null,
      watermark
    }
  } catch (error) {
    if (error instanceof Refused) return { ok: false, code: error.code, message: error.message }
    throw error
  }
}
