import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'
import { createTestApp } from '#test/helpers.js'

export interface SinkOptions {
  /**
   * Called for each message before it is taken: a number refuses it with that SMTP reply code
   * (451: try later, 550: never), `hold` keeps the reply back (a server killed mid-send).
   */
  answer?: (raw: string) => number | 'hold' | undefined
}

/**
 * A local SMTP server that keeps every message it receives (raw), for the mail tests, and counts
 * the connections made to it.
 */
export async function smtpSink (options: SinkOptions = {}) {
  const messages: string[] = []
  const stats = { connections: 0 }
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onConnect (_session, callback) {
      stats.connections++
      callback()
    },
    onData (stream, _session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8')
        const answer = options.answer?.(raw)
        if (answer === 'hold') return
        if (answer !== undefined) {
          const refusal = Object.assign(new Error(`refused: ${answer}`), { responseCode: answer })
          return callback(refusal)
        }
        // Kept only when acknowledged: a message whose 250 never went out was not delivered.
        messages.push(raw)
        callback()
      })
    }
  })
  server.listen(0, '127.0.0.1')
  await once(server.server, 'listening')
  const { port } = server.server.address() as AddressInfo
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()))
  return { messages, stats, port, close }
}

/**
 * A test app that mails through a fresh sink (`SMTP_URL`, and the `PUBLIC_URL` links need), both
 * closed after the test; `env` adds to or overrides the variables.
 */
export async function mailingTestApp (
  t: { after (fn: () => unknown): void },
  env: NodeJS.ProcessEnv = {},
  sinkOptions: SinkOptions = {}
) {
  const sink = await smtpSink(sinkOptions)
  const ctx = await createTestApp({}, {
    SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
    PUBLIC_URL: 'https://band.example.org',
    ...env
  })
  // The app first: its pooled connection ends with it, and the sink closes without waiting.
  t.after(async () => {
    await ctx.close()
    await sink.close()
  })
  return { sink, ctx }
}
