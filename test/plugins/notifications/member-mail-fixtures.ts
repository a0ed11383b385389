import { setImmediate as turn } from 'node:timers/promises'
import { simpleParser, type ParsedMail } from 'mailparser'
import { createUser, userClient } from '#test/helpers.js'
import { mailingTestApp, type SinkOptions } from '#test/smtp-sink.js'
import { DEFAULT_APP_CONFIG } from '#schemas/app-config.js'
import type { App } from '#src/app.js'

/** A date `days` from today (UTC; the tests' gigs lie weeks ahead, so the zone does not matter). */
export const inDays = (days: number) =>
  new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)

/** Lets the looks scheduled after a request run, then waits until the outbox is sent. */
export async function settle (app: App): Promise<void> {
  await turn()
  await app.memberMail.worker?.idle()
}

/**
 * A band mailing through a real SMTP server: an editor (`boss`, admin) and `members` musicians with
 * addresses (`m1@example.org` …), in `locale`.
 */
export async function mailingBand (
  t: { after (fn: () => unknown): void },
  options: { locale?: string; members?: number; sink?: SinkOptions } = {}
) {
  const { sink, ctx } = await mailingTestApp(t, {}, options.sink)
  const boss = await userClient(ctx.app, 'boss', 'admin')
  await boss.put('/admin/app_config', {
    ...DEFAULT_APP_CONFIG,
    locale: options.locale ?? 'en-GB',
    bandName: 'Lanterns'
  })
  const members = []
  for (let i = 1; i <= (options.members ?? 2); i++) {
    members.push(await createUser(ctx.app, `m${i}`, 'member', { email: `m${i}@example.org` }))
  }
  const parsed = () => Promise.all(sink.messages.map((raw) => simpleParser(raw)))
  return { sink, ctx, app: ctx.app, boss, members, parsed }
}

export const textOf = (mail: ParsedMail) => mail.text ?? ''
export const toOf = (mail: ParsedMail) =>
  [mail.to].flat().flatMap((a) => a?.value.map((v) => v.address) ?? [])
