// Colours for generated documents. Every text colour is checked against the background it is
// printed on and darkened/lightened until it reaches WCAG AA contrast (4.5:1), so a logo can never
// make a sheet unreadable.

export type Rgb = readonly [number, number, number]

export interface RgbaImage {
  width: number
  height: number
  /** 4 bytes per pixel, row-major. */
  pixels: Uint8Array
}

export const MIN_CONTRAST = 4.5

export const hex = ([r, g, b]: Rgb) =>
  `#${[r, g, b].map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`
export const fromHex = (value: string): Rgb => {
  const n = Number.parseInt(value.replace('#', ''), 16)
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255]
}

const channel = (c: number) => {
  const s = c / 255
  return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
}
export const luminance = ([r, g, b]: Rgb) =>
  0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)

/** WCAG 2 contrast ratio of two colours (1–21). */
export function contrast (a: Rgb | string, b: Rgb | string): number {
  const la = luminance(typeof a === 'string' ? fromHex(a) : a)
  const lb = luminance(typeof b === 'string' ? fromHex(b) : b)
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05)
}

export function rgbToHsl ([r, g, b]: Rgb): [number, number, number] {
  const rn = r / 255
  const gn = g / 255
  const bn = b / 255
  const max = Math.max(rn, gn, bn)
  const min = Math.min(rn, gn, bn)
  const l = (max + min) / 2
  if (max === min) return [0, 0, l]
  const d = max - min
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min)
  const h =
    max === rn
      ? (gn - bn) / d + (gn < bn ? 6 : 0)
      : max === gn
        ? (bn - rn) / d + 2
        : (rn - gn) / d + 4
  return [h * 60, s, l]
}

export function hslToRgb (h: number, s: number, l: number): Rgb {
  const k = (n: number) => (n + h / 30) % 12
  const a = s * Math.min(l, 1 - l)
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)))
  return [Math.round(f(0) * 255), Math.round(f(8) * 255), Math.round(f(4) * 255)]
}

/**
 * The colour itself if it reaches the ratio against the background, else the same hue and
 * saturation moved in lightness (darker on light backgrounds, lighter on dark ones) until it does;
 * black or white last.
 */
export function ensureContrast (
  colour: Rgb | string,
  background: Rgb | string,
  ratio = MIN_CONTRAST
): string {
  const fg = typeof colour === 'string' ? fromHex(colour) : colour
  const bg = typeof background === 'string' ? fromHex(background) : background
  if (contrast(fg, bg) >= ratio) return hex(fg)
  const [h, s, l] = rgbToHsl(fg)
  const darker = luminance(bg) > 0.18
  for (let step = 1; step <= 100; step++) {
    const candidate = hslToRgb(
      h,
      s,
      darker ? Math.max(0, l - step / 100) : Math.min(1, l + step / 100)
    )
    if (contrast(candidate, bg) >= ratio) return hex(candidate)
  }
  return contrast('#000000', bg) >= contrast('#ffffff', bg) ? '#000000' : '#ffffff'
}

/** Black or white, whichever reads better on the background (one of them always exceeds 4.5:1). */
export const readableOn = (background: Rgb | string) =>
  contrast('#000000', background) >= contrast('#ffffff', background) ? '#000000' : '#ffffff'

export interface DocumentPalette {
  /** Solid accent (bars, table heads). */
  accent: string
  /** Text on the accent. */
  onAccent: string
  /** The accent as a text colour on the page background. */
  accentText: string
  /** A light tint of the accent for zebra rows and boxes. */
  tint: string
  text: string
  mutedText: string
  /** Text on the tint. */
  textOnTint: string
  background: string
  /** Where the accent came from. */
  source: 'logo' | 'neutral'
}

const NEUTRAL_ACCENT: Rgb = [55, 71, 79]

/** The palette for a light (white) page from an accent colour, or the neutral one without. */
export function buildPalette (accent: Rgb | null): DocumentPalette {
  const background = '#ffffff'
  const base = accent ?? NEUTRAL_ACCENT
  const [h, s] = rgbToHsl(base)
  const tint = hex(hslToRgb(h, Math.min(s, 0.6), 0.94))
  return {
    accent: hex(base),
    onAccent: readableOn(base),
    accentText: ensureContrast(base, background),
    tint,
    text: ensureContrast('#1f1f1f', background),
    mutedText: ensureContrast('#5f6368', tint),
    textOnTint: ensureContrast('#1f1f1f', tint),
    background,
    source: accent ? 'logo' : 'neutral'
  }
}

/**
 * The logo's most saturated mid-brightness colour: pixels are sampled (at most ~20 000),
 * transparent and very dark/light ones ignored, the rest grouped into coarse colour buckets; among
 * buckets holding at least 0.5 % of the sample, the most saturated one wins (its average colour).
 * Null when the logo is greyscale.
 */
export function dominantAccent (image: RgbaImage): Rgb | null {
  const { width, height, pixels } = image
  const total = width * height
  const step = Math.max(1, Math.floor(total / 20_000))
  const buckets = new Map<number, { n: number; r: number; g: number; b: number }>()
  let counted = 0
  for (let i = 0; i < total; i += step) {
    const o = i * 4
    if (pixels[o + 3]! < 128) continue
    const r = pixels[o]!
    const g = pixels[o + 1]!
    const b = pixels[o + 2]!
    counted++
    const [, s, l] = rgbToHsl([r, g, b])
    if (l < 0.2 || l > 0.8 || s < 0.2) continue
    const key = ((r >> 4) << 8) | ((g >> 4) << 4) | (b >> 4)
    const bucket = buckets.get(key) ?? { n: 0, r: 0, g: 0, b: 0 }
    bucket.n++
    bucket.r += r
    bucket.g += g
    bucket.b += b
    buckets.set(key, bucket)
  }
  const minimum = Math.max(1, counted * 0.005)
  let best: { colour: Rgb; score: number; n: number } | null = null
  for (const bucket of buckets.values()) {
    if (bucket.n < minimum) continue
    const colour: Rgb = [bucket.r / bucket.n, bucket.g / bucket.n, bucket.b / bucket.n]
    const [, s, l] = rgbToHsl(colour)
    // Saturation first; among equals prefer the lightness nearest the middle.
    const score = s - Math.abs(l - 0.5) * 0.2
    if (!best || score > best.score || (score === best.score && bucket.n > best.n)) {
      best = { colour: colour.map(Math.round) as unknown as Rgb, score, n: bucket.n }
    }
  }
  return best?.colour ?? null
}

/** The document palette for the stored logo's accent colour (`#rrggbb`), neutral without. */
export const paletteForAccent = (accent: string | null | undefined): DocumentPalette =>
  buildPalette(accent && /^#[\da-f]{6}$/i.test(accent) ? fromHex(accent) : null)

/**
 * A stable colour for a name (lead singers): hue from a string hash, readable on the given
 * background.
 */
export function colourForName (name: string, background: string): string {
  let hash = 2166136261
  for (const ch of name.trim().toLowerCase()) {
    hash = Math.imul(hash ^ ch.codePointAt(0)!, 16777619) >>> 0
  }
  const hue = (hash % 24) * 15
  const light = luminance(fromHex(background)) > 0.18
  return ensureContrast(hslToRgb(hue, 0.75, light ? 0.35 : 0.7), background)
}
