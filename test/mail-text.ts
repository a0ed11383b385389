// A raw message as the SMTP sink received it, read back: the decoded Subject and the decoded
// plain-text body (nodemailer writes non-ASCII as RFC 2047 encoded words and quoted-printable).

const bytes = (hex: string) => Buffer.from(hex, 'hex')

function decodeWord (charsetText: string, encoding: string, data: string): string {
  if (charsetText.toLowerCase() !== 'utf-8') throw new Error(`charset ${charsetText}`)
  if (encoding.toUpperCase() === 'B') return Buffer.from(data, 'base64').toString('utf8')
  return qpBytes(data.replace(/_/g, ' ')).toString('utf8')
}

function qpBytes (text: string): Buffer {
  const parts: Buffer[] = []
  let last = 0
  for (const m of text.matchAll(/=([0-9A-F]{2})/gi)) {
    parts.push(Buffer.from(text.slice(last, m.index), 'utf8'), bytes(m[1]!))
    last = m.index + 3
  }
  parts.push(Buffer.from(text.slice(last), 'utf8'))
  return Buffer.concat(parts)
}

export function readMail (raw: string): { subject: string; text: string } {
  const split = raw.indexOf('\r\n\r\n')
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ')
  const body = raw.slice(split + 4)
  const header = (name: string) =>
    new RegExp(`^${name}: (.*)$`, 'mi').exec(head)?.[1] ?? ''
  const subject = header('Subject')
    // whitespace between two encoded words is not part of the text (RFC 2047 §6.2)
    .replace(/(\?=)\s+(=\?)/g, '$1$2')
    .replace(/=\?([^?]+)\?([BQ])\?([^?]*)\?=/gi, (_, c: string, e: string, d: string) =>
      decodeWord(c, e, d))
  const encoding = header('Content-Transfer-Encoding').trim().toLowerCase()
  const text = encoding === 'quoted-printable'
    ? qpBytes(body.replace(/=\r\n/g, '')).toString('utf8')
    : encoding === 'base64'
      ? Buffer.from(body, 'base64').toString('utf8')
      : body
  return { subject, text: text.replace(/\r\n/g, '\n') }
}
