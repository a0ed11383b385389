import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

/** A local SMTP server that keeps every message it receives (raw), for the mail tests. */
export async function smtpSink () {
  const messages: string[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData (stream, _session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        messages.push(Buffer.concat(chunks).toString('utf8'))
        callback()
      })
    }
  })
  server.listen(0, '127.0.0.1')
  await once(server.server, 'listening')
  const { port } = server.server.address() as AddressInfo
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()))
  return { messages, port, close }
}
