import { createRequire } from 'node:module'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { TDocumentDefinitions } from 'pdfmake/interfaces.js'

// pdfmake is a process-wide singleton: configured once here. Fonts are the Roboto files shipped
// with the package, loaded into its virtual file system, so neither URLs nor local files are ever
// opened while rendering (both access policies refuse everything; images arrive as data URLs).

type PdfMake = typeof import('pdfmake')
const require = createRequire(import.meta.url)
let instance: PdfMake | undefined
let parses = 0

/** How often a font file was parsed through the shared cache (document-renderers.test.ts). */
export const fontParses = () => parses

/**
 * pdfkit parses the TTF afresh for every document (fontkit.create) and loses fontkit's table and
 * shaping caches with it: that was most of the render time. A parsed font is immutable apart from
 * those caches, so one parse per font file is shared by all documents (each document still embeds
 * its own subset). fontkit's exports are read-only getters, hence the wrapped module in the require
 * cache, installed before pdfkit loads. Should pdfkit already be loaded elsewhere, rendering still
 * works, only slower. No public API of pdfkit or pdfmake takes a parsed font; should an upgrade
 * stop loading fontkit through require(), test/src/documents/document-renderers.test.ts fails
 * (fontParses).
 */
interface SharedFont {
  getGlyph (id: number, characters?: number[]): { codePoints: number[] } | null
}

/**
 * fontkit caches a glyph with the characters of its first lookup. A subset asks for the parts of
 * a composite glyph (Roboto's colon is two full stops) by id alone, so with a shared font the full
 * stop was cached without its character and every later document printed it without text
 * (ToUnicode): copy, search and pdftotext lost it. A lookup that knows the characters fills them
 * in.
 */
function keepGlyphText (font: SharedFont): SharedFont {
  const getGlyph = font.getGlyph.bind(font)
  font.getGlyph = (id, characters = []) => {
    const glyph = getGlyph(id, characters)
    if (glyph && glyph.codePoints.length === 0 && characters.length > 0) {
      glyph.codePoints = characters
    }
    return glyph
  }
  return font
}

function shareParsedFonts (): void {
  const fontkitPath = createRequire(require.resolve('pdfkit')).resolve('fontkit')
  const real = require(fontkitPath) as Record<string, unknown> & {
    create: (data: Uint8Array, name?: string) => unknown
  }
  const parsed = new WeakMap<Uint8Array, Map<string, unknown>>()
  const create = (data: Uint8Array, name?: string) => {
    const byName = parsed.get(data) ?? new Map<string, unknown>()
    parsed.set(data, byName)
    const key = name ?? ''
    if (!byName.has(key)) {
      byName.set(key, keepGlyphText(real.create(data, name) as SharedFont))
      parses++
    }
    return byName.get(key)
  }
  const cached = require.cache[fontkitPath]
  if (cached) cached.exports = { ...real, create }
}

// The font files as pdfmake has them: measured with the same (shared) parse.
const fontData = new Map<string, Buffer>()
interface MeasuredFont {
  unitsPerEm: number
  layout (text: string): { advanceWidth: number }
}
const measured = new Map<string, MeasuredFont>()

/**
 * The width in points of a text in Roboto (`bold`: the bold face pdfmake uses), as pdfmake will
 * lay it out: the songbook places chords over their syllables by it.
 */
export function textWidth (text: string, size: number, bold = false): number {
  const style = bold ? 'bold' : 'normal'
  let font = measured.get(style)
  if (!font) {
    pdfmake()
    const fontkit = require(createRequire(require.resolve('pdfkit')).resolve('fontkit')) as {
      create: (data: Uint8Array) => MeasuredFont
    }
    font = fontkit.create(fontData.get(style)!)
    measured.set(style, font)
  }
  return (font.layout(text).advanceWidth / font.unitsPerEm) * size
}

function pdfmake (): PdfMake {
  if (instance) return instance
  shareParsedFonts()
  const pdf = require('pdfmake') as PdfMake
  const fontDir = join(dirname(require.resolve('pdfmake/package.json')), 'build', 'fonts', 'Roboto')
  const files = {
    normal: 'Roboto-Regular.ttf',
    bold: 'Roboto-Medium.ttf',
    italics: 'Roboto-Italic.ttf',
    bolditalics: 'Roboto-MediumItalic.ttf'
  }
  const vfs = (pdf as unknown as { virtualfs: { writeFileSync(name: string, data: Buffer): void } })
    .virtualfs
  for (const [style, file] of Object.entries(files)) {
    const data = readFileSync(join(fontDir, file))
    fontData.set(style, data)
    vfs.writeFileSync(file, data)
  }
  pdf.setFonts({ Roboto: files })
  pdf.setUrlAccessPolicy(() => false)
  pdf.setLocalAccessPolicy(() => false)
  instance = pdf
  return pdf
}

/**
 * pdfkit decodes some embedded images in zlib callbacks: an error there is thrown outside of any
 * promise and would end the thread (or, on the main thread, the process). While a document
 * renders, such an error fails that document instead, so the caller can fall back. Renders run one
 * at a time per worker thread, so an error thrown meanwhile belongs to this document.
 */
function failOnUncaught<T> (work: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    process.once('uncaughtException', reject)
    Promise.resolve()
      .then(work)
      .then(resolve, reject)
      .finally(() => process.off('uncaughtException', reject))
  })
}

export async function renderPdf (definition: TDocumentDefinitions): Promise<Buffer> {
  return failOnUncaught(() =>
    pdfmake()
      .createPdf({ ...definition, defaultStyle: { font: 'Roboto', ...definition.defaultStyle } })
      .getBuffer()
  )
}
