import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { createUser, json, userClient, type Ok } from '#test/helpers.js'
import { mailingTestApp } from '#test/smtp-sink.js'
import { readMail } from '#test/mail-text.js'
import { DEFAULT_APP_CONFIG } from '#schemas/app-config.js'
import { LINK_MAIL_LABELS } from '#plugins/password-reset/labels.js'

// The invitation and reset-link mails speak the band's language: English
// for an English band, German (as before) for a German one. Names are neutral, so a label word of
// the other language found in a mail can only be ours.

const GERMAN = [
  'Hallo', 'Einladung', 'von', 'lädt', 'dich', 'ein', 'Mit', 'diesem', 'wählst', 'du', 'dein',
  'Passwort', 'Benutzername', 'ist', 'Der', 'gilt', 'Tage', 'Tag', 'Stunden', 'und', 'nur',
  'einmal', 'neues', 'setzen', 'geschickt', 'Danach', 'Geräten', 'abgemeldet', 'Admin'
]
const ENGLISH = [
  'Hello', 'invitation', 'from', 'invites', 'you', 'With', 'this', 'choose', 'your', 'password',
  'username', 'is', 'The', 'works', 'for', 'days', 'day', 'hours', 'and', 'only', 'once', 'new',
  'set', 'sent', 'Afterwards', 'device', 'logged', 'admin'
]
const wordsIn = (text: string, words: string[]) =>
  words.filter((word) => new RegExp(`(^|[^\\p{L}])${word}($|[^\\p{L}])`, 'u').test(text))

/** The invitation of Mia (new) and a reset link for Tom, mailed by a band in `locale`. */
async function mailsOf (locale: string, t: TestContext) {
  const { sink, ctx } = await mailingTestApp(t)
  const boss = await userClient(ctx.app, 'boss', 'admin')
  const saved = await boss.put('/admin/app_config', {
    ...DEFAULT_APP_CONFIG, locale, bandName: 'Lanterns'
  })
  assert.equal(saved.statusCode, 200, saved.body)
  const created = await boss.post('/users', {
    username: 'mia', displayName: 'Mia M.', role: 'member', email: 'mia@example.org'
  })
  assert.equal(created.statusCode, 201, created.body)
  const invite = json<Ok<'/users', 'post'>>(created).invite!
  assert.equal(invite.mail, 'sent')
  const tom = await createUser(ctx.app, 'tom', 'member', { email: 'tom@example.org' })
  const reset = json<Ok<'/users/{id}/reset-link', 'post'>>(
    await boss.post(`/users/${tom.id}/reset-link`))
  assert.equal(reset.mail, 'sent')
  assert.equal(sink.messages.length, 2)
  const [inviteMail, resetMail] = sink.messages.map(readMail)
  return { invite: inviteMail!, reset: resetMail!, inviteUrl: invite.url, resetUrl: reset.url }
}

const labelWords = (mail: { subject: string; text: string }) =>
  // the link's path is the web app's, the same in every language
  `${mail.subject}\n${mail.text}`.replace(/https:\/\/\S+/g, '')

test('an English band (en-GB) mails invitations and reset links in English', async (t) => {
  const { invite, reset, inviteUrl, resetUrl } = await mailsOf('en-GB', t)
  assert.deepEqual(invite, {
    subject: 'Bandstand: invitation from Lanterns',
    text:
      'Hello Mia M.,\n\nBoss invites you to Bandstand (Lanterns). With this link you choose ' +
      `your password; your username is “mia”:\n\n${inviteUrl}\n\nThe link works for 7 days, ` +
      'and only once.\n'
  })
  assert.deepEqual(reset, {
    subject: 'Bandstand: set a new password',
    text:
      'Hello Tom,\n\nBoss has sent you a link to set a new password for Bandstand (Lanterns):' +
      `\n\n${resetUrl}\n\nThe link works for 1 day, and only once. Afterwards you are logged ` +
      'out on every device and log in with the new password.\n'
  })
  for (const mail of [invite, reset]) {
    assert.deepEqual(wordsIn(labelWords(mail), GERMAN), [], mail.text)
    assert.doesNotMatch(mail.text, /„/)
  }
})

test('a German band (de-DE) mails them in German, as before', async (t) => {
  const { invite, reset, inviteUrl, resetUrl } = await mailsOf('de-DE', t)
  assert.deepEqual(invite, {
    subject: 'Bandstand: Einladung von Lanterns',
    text:
      'Hallo Mia M.,\n\nBoss lädt dich zu Bandstand (Lanterns) ein. Mit diesem Link wählst du ' +
      `dein Passwort, dein Benutzername ist „mia“:\n\n${inviteUrl}\n\nDer Link gilt 7 Tage und ` +
      'nur einmal.\n'
  })
  assert.deepEqual(reset, {
    subject: 'Bandstand: neues Passwort setzen',
    text:
      'Hallo Tom,\n\nBoss hat dir einen Link geschickt, mit dem du ein neues Passwort für ' +
      `Bandstand (Lanterns) setzt:\n\n${resetUrl}\n\nDer Link gilt 1 Tag und nur einmal. ` +
      'Danach bist du auf allen Geräten abgemeldet und meldest dich mit dem neuen Passwort an.\n'
  })
  for (const mail of [invite, reset]) {
    assert.deepEqual(wordsIn(labelWords(mail), ENGLISH), [], mail.text)
    assert.doesNotMatch(mail.text, /”/)
  }
})

test('how long a link lasts, in each language (singular and plural)', () => {
  const minute = 60_000
  const hour = 60 * minute
  const cases: Array<[number, string, string]> = [
    [minute, '1 Minute', '1 minute'],
    [15 * minute, '15 Minuten', '15 minutes'],
    [119 * minute, '119 Minuten', '119 minutes'],
    [2 * hour, '2 Stunden', '2 hours'],
    [36 * hour, '36 Stunden', '36 hours'],
    [24 * hour, '1 Tag', '1 day'],
    [7 * 24 * hour, '7 Tage', '7 days'],
    // the app's clock has run on a little since the link was made: still whole units
    [7 * 24 * hour - 1500, '7 Tage', '7 days']
  ]
  for (const [ms, de, en] of cases) {
    assert.equal(LINK_MAIL_LABELS.de.life(ms), de)
    assert.equal(LINK_MAIL_LABELS.en.life(ms), en)
  }
})
