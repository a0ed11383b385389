import { execFileSync } from 'node:child_process'

// Documents are checked by reading them back with poppler's tools (installed in CI).

/** PDF text by poppler's pdftotext (installed in CI), layout kept so one row stays one line. */
export const pdfText = (pdf: Buffer) =>
  execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', '-', '-'], { input: pdf }).toString('utf8')
/** The images of a PDF (poppler's pdfimages): width and height of each. */
export const pdfImages = (pdf: Buffer) =>
  execFileSync('pdfimages', ['-list', '-'], { input: pdf })
    .toString('utf8')
    .split('\n')
    .slice(2)
    .filter((line) => line.trim())
    .map((line) => {
      const [, , , width, height] = line.trim().split(/\s+/)
      return { width: Number(width), height: Number(height) }
    })
export const pdfInfo = (pdf: Buffer) =>
  execFileSync('pdfinfo', ['-enc', 'UTF-8', '-'], { input: pdf }).toString('utf8')
