import { randomBytes } from 'node:crypto'
import type { LightMyRequestResponse } from 'fastify'
import type { Client } from './helpers.js'

// Files for the upload tests, each exactly what it is: a WAV of a sine tone (plays in Chromium),
// a small valid PDF, and the impostors of the sniffing tests.

const TONE_HZ = 440
const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b))

/** A mono 16-bit PCM WAV of a 440 Hz tone, `seconds` long at 8 kHz. */
export function wavFile (seconds = 2, rate = 8000): Buffer {
  // The samples repeat after rate / gcd(440, rate) of them (200 at 8 kHz): one period computed,
  // then repeated by Buffer.fill (sample by sample, the bench's hour-long WAV takes 3.4 CPU-s).
  const period = rate / gcd(TONE_HZ, rate)
  const tone = Buffer.alloc(period * 2)
  for (let i = 0; i < period; i++) {
    tone.writeInt16LE(Math.round(Math.sin((2 * Math.PI * TONE_HZ * i) / rate) * 8000), i * 2)
  }
  const data = Buffer.alloc(seconds * rate * 2).fill(tone)
  const header = Buffer.alloc(44)
  header.write('RIFF', 0, 'latin1')
  header.writeUInt32LE(36 + data.length, 4)
  header.write('WAVEfmt ', 8, 'latin1')
  header.writeUInt32LE(16, 16)
  header.writeUInt16LE(1, 20) // PCM
  header.writeUInt16LE(1, 22) // mono
  header.writeUInt32LE(rate, 24)
  header.writeUInt32LE(rate * 2, 28)
  header.writeUInt16LE(2, 32)
  header.writeUInt16LE(16, 34)
  header.write('data', 36, 'latin1')
  header.writeUInt32LE(data.length, 40)
  return Buffer.concat([header, data])
}

/** A one-page PDF showing `text` (valid: pdf.js and pdftotext read it), padded to `minBytes`. */
export function pdfFile (text = 'Lead sheet', minBytes = 0): Buffer {
  const content = `BT /F1 24 Tf 72 720 Td (${text}) Tj ET`
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R ' +
      '/Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'
  ]
  let body = '%PDF-1.4\n'
  const offsets: number[] = []
  objects.forEach((object, i) => {
    offsets.push(body.length)
    body += `${i + 1} 0 obj\n${object}\nendobj\n`
  })
  const xref = body.length
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n` +
    offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('') +
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  const pdf = Buffer.from(body, 'latin1')
  // A comment after %%EOF pads it: readers take the last startxref they find from the end.
  const padding = Math.max(0, minBytes - pdf.length)
  return padding === 0 ? pdf : Buffer.concat([pdf, Buffer.from('%'), randomBytes(padding)])
}

export const htmlFile = () =>
  Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>')
export const svgFile = () =>
  Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')
/** A ZIP's local file header: a type file-type knows, which Bandstand does not take. */
export const zipFile = () =>
  Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 8, 0]), randomBytes(200)])

export interface Part {
  name: string
  value?: string
  filename?: string
  content?: Buffer
  type?: string
}

const BOUNDARY = '----bandstand-test-boundary'

/** A multipart/form-data body of these parts, in this order. */
export function multipart (parts: Part[]): { payload: Buffer, headers: Record<string, string> } {
  const chunks: Buffer[] = []
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"` +
      (part.filename === undefined ? '' : `; filename="${part.filename}"`)
    const head = `--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n` +
      (part.content ? `Content-Type: ${part.type ?? 'application/octet-stream'}\r\n` : '') + '\r\n'
    const content = part.content ?? Buffer.from(part.value ?? '')
    chunks.push(Buffer.from(head), content, Buffer.from('\r\n'))
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`))
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }
  }
}

/** Uploads one file with its title and kind (fields first, as the web app sends them). */
export function upload (
  client: Client,
  url: string,
  content: Buffer,
  { title = 'A file', kind = 'document', filename = 'file.bin' } = {}
): Promise<LightMyRequestResponse> {
  const { payload, headers } = multipart([
    { name: 'title', value: title },
    { name: 'kind', value: kind },
    { name: 'file', filename, content }
  ])
  return client.request('POST', url, payload, headers)
}
