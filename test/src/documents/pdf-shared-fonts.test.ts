import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fontParses, renderPdf } from '#src/documents/pdf.js'
import { renderSetlistPdf } from '#src/documents/setlist-pdf.js'
import { bigGig, contextFixture } from '#test/document-fixtures.js'
import { pdfText } from '#test/pdf-tools.js'

// The parsed fonts are shared by every document (src/documents/pdf.ts). In Roboto the colon is
// built from the full stop's outline: a document with a colon but no full stop caches the full
// stop's glyph without its character, and every later document printed its full stops without
// text (invisible to copy, search and pdftotext: "04 07 2026" in the songbook's header).
test('a glyph first embedded as a part of another keeps its text in later documents', async () => {
  const onlyColon = pdfText(await renderPdf({ content: [{ text: 'Vocals: Lena' }] }))
  assert.match(onlyColon, /Vocals: Lena/)
  for (const style of [{}, { bold: true }, { italics: true }]) {
    await renderPdf({ content: [{ text: 'a: b', ...style }] })
    const text = 'Sa, 04.07.2026. Ende.'
    const later = pdfText(await renderPdf({ content: [{ text, ...style }] }))
    assert.match(later, /Sa, 04\.07\.2026\. Ende\./, JSON.stringify(style))
  }
})

test('fonts are parsed once and shared by every PDF (the fontkit patch works)', async () => {
  await renderSetlistPdf(bigGig(1, 3), contextFixture())
  const parsed = fontParses()
  // pdfkit must still load fontkit through require(); otherwise src/documents/pdf.ts shares
  // nothing.
  assert.ok(parsed > 0, 'pdfkit parsed its fonts through the shared cache')
  await renderSetlistPdf(bigGig(2, 5), contextFixture(), 'stage')
  assert.equal(fontParses(), parsed, 'a second document parses no font again')
})
