import pngjs from 'pngjs'
import { downscale } from './logo.js'
import type { RgbaImage } from './palette.js'

// The home-screen icons of the installable web app (GET /public/icons/{file}). With a band logo
// they are made from the logo's prepared copy (src/documents/logo.ts: RGB, flattened onto white, at
// most 512 pixels), so nothing is decoded from an upload here; without one they are our own mark
// (web/static/favicon.svg: a play triangle on a dark rounded square), drawn in code so that no
// image file has to be kept in step with the SVG.

/** One icon the manifest lists; the file name is the route's parameter. */
export interface IconSpec {
  file: string
  size: number
  purpose: 'any' | 'maskable'
}

/**
 * What browsers ask for: 192 and 512 (Chromium's install criteria), a maskable 512 (Android's
 * adaptive icons crop it to a circle or squircle), 180 for Safari's apple-touch-icon.
 */
export const ICONS: readonly IconSpec[] = [
  { file: 'icon-192.png', size: 192, purpose: 'any' },
  { file: 'icon-512.png', size: 512, purpose: 'any' },
  { file: 'maskable-512.png', size: 512, purpose: 'maskable' },
  { file: 'apple-touch-icon.png', size: 180, purpose: 'any' }
]
export const ICON_FILES = ICONS.map((icon) => icon.file)

export const THEME_COLOUR = '#14161a'
const MARK_COLOUR = [0xff, 0xcf, 0x40] as const
const DARK = [0x14, 0x16, 0x1a] as const

/**
 * Share of the icon the content may fill: a maskable icon keeps it inside the safe zone (the
 * centre circle of 80 % diameter), an ordinary one leaves a small margin.
 */
const contentShare = (purpose: IconSpec['purpose']) => (purpose === 'maskable' ? 0.6 : 0.84)

/** Whether (x, y) in the 32-unit favicon's coordinates lies on the play triangle M9 23V9l14 7z. */
function inTriangle (x: number, y: number): boolean {
  if (x < 9 || x > 23) return false
  const half = ((23 - x) / 14) * 7
  return y >= 16 - half && y <= 16 + half
}

/** Whether (x, y) lies inside the 32-unit square with corner radius 7 (the favicon's rx). */
function inRoundedSquare (x: number, y: number): boolean {
  const r = 7
  const cx = Math.min(Math.max(x, r), 32 - r)
  const cy = Math.min(Math.max(y, r), 32 - r)
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r
}

/** Our mark at `size` pixels, 4×4 samples per pixel for smooth edges. */
function ourIcon (size: number, purpose: IconSpec['purpose']): Uint8Array {
  const pixels = new Uint8Array(size * size * 4)
  // A maskable icon is a full square (the system crops it); the triangle shrinks into the safe
  // zone around its centre.
  const scale = purpose === 'maskable' ? 0.75 : 1
  const samples = 4
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let inside = 0
      let mark = 0
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const x = ((px + (sx + 0.5) / samples) / size) * 32
          const y = ((py + (sy + 0.5) / samples) / size) * 32
          if (purpose === 'any' && !inRoundedSquare(x, y)) continue
          inside++
          if (inTriangle(16 + (x - 16) / scale, 16 + (y - 16) / scale)) mark++
        }
      }
      const o = (py * size + px) * 4
      const share = inside ? mark / inside : 0
      for (let c = 0; c < 3; c++) {
        pixels[o + c] = Math.round(DARK[c]! * (1 - share) + MARK_COLOUR[c]! * share)
      }
      pixels[o + 3] = Math.round((inside / samples ** 2) * 255)
    }
  }
  return pixels
}

/** Scaled so that its longest side is `side`: box-filtered down, or bilinear up (small logos). */
function fit (image: RgbaImage, side: number): RgbaImage {
  const scale = side / Math.max(image.width, image.height)
  if (scale <= 1) return downscale(image, side)
  const w = Math.max(1, Math.round(image.width * scale))
  const h = Math.max(1, Math.round(image.height * scale))
  const out = new Uint8Array(w * h * 4)
  const at = (x: number, y: number, c: number) => image.pixels[(y * image.width + x) * 4 + c]!
  for (let y = 0; y < h; y++) {
    const sy = Math.min(image.height - 1, Math.max(0, (y + 0.5) / scale - 0.5))
    const y0 = Math.floor(sy)
    const y1 = Math.min(image.height - 1, y0 + 1)
    for (let x = 0; x < w; x++) {
      const sx = Math.min(image.width - 1, Math.max(0, (x + 0.5) / scale - 0.5))
      const x0 = Math.floor(sx)
      const x1 = Math.min(image.width - 1, x0 + 1)
      for (let c = 0; c < 4; c++) {
        const top = at(x0, y0, c) + (at(x1, y0, c) - at(x0, y0, c)) * (sx - x0)
        const bottom = at(x0, y1, c) + (at(x1, y1, c) - at(x0, y1, c)) * (sx - x0)
        out[(y * w + x) * 4 + c] = Math.round(top + (bottom - top) * (sy - y0))
      }
    }
  }
  return { width: w, height: h, pixels: out }
}

/** The logo, fitted into the content share and centred on a white square. */
function logoIcon (logo: RgbaImage, size: number, purpose: IconSpec['purpose']): Uint8Array {
  const fitted = fit(logo, Math.floor(size * contentShare(purpose)))
  const pixels = new Uint8Array(size * size * 4).fill(255)
  const left = Math.floor((size - fitted.width) / 2)
  const top = Math.floor((size - fitted.height) / 2)
  for (let y = 0; y < fitted.height; y++) {
    for (let x = 0; x < fitted.width; x++) {
      const s = (y * fitted.width + x) * 4
      const t = ((top + y) * size + left + x) * 4
      const alpha = fitted.pixels[s + 3]! / 255
      for (let c = 0; c < 3; c++) {
        pixels[t + c] = Math.round(fitted.pixels[s + c]! * alpha + 255 * (1 - alpha))
      }
    }
  }
  return pixels
}

/** Decodes the logo's prepared copy (an RGB PNG of at most 512 pixels a side). */
export function decodePrepared (png: Buffer): RgbaImage {
  const image = pngjs.PNG.sync.read(png)
  return { width: image.width, height: image.height, pixels: new Uint8Array(image.data) }
}

/** The icon as a PNG: from the logo when there is one, else ours. */
export function renderIcon (spec: IconSpec, logo: RgbaImage | null): Buffer {
  const { size } = spec
  const pixels = logo ? logoIcon(logo, size, spec.purpose) : ourIcon(size, spec.purpose)
  const data = Buffer.from(pixels.buffer, pixels.byteOffset, pixels.byteLength)
  return pngjs.PNG.sync.write({ width: size, height: size, data } as pngjs.PNG, {
    colorType: 6
  })
}
