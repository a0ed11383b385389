import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'

export const pdfText = (pdf: Buffer) =>
  execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', '-', '-'], { input: pdf }).toString('utf8')

export const pdfTitle = (pdf: Buffer) =>
  /Title:\s*(.*)/.exec(execFileSync('pdfinfo', ['-'], { input: pdf }).toString('utf8'))?.[1]

/**
 * Reads a CSV file as a spreadsheet would (RFC 4180 with `;`): asserts the UTF-8 byte order mark,
 * returns the rows.
 */
export function parseCsv (bytes: Buffer): string[][] {
  assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'UTF-8 byte order mark')
  const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(3))
  assert.ok(text.endsWith('\r\n'), 'CRLF line ends')
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"'
        i++
      } else if (c === '"') quoted = false
      else field += c
    } else if (c === '"') quoted = true
    else if (c === ';') {
      row.push(field)
      field = ''
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field)
      rows.push(row)
      row = []
      field = ''
      i++
    } else field += c
  }
  return rows
}
