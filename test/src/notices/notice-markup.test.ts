import { test } from 'node:test'
import assert from 'node:assert/strict'
import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createTestApp, json, userClient, type Ok } from '#test/helpers.js'
import { chatFlavor, chatText, NOTICE_FIELD_MAX } from '#src/notices/markup.js'
import { noticeText } from '#src/notices/notices.js'
import { NOTICES_PER_MEMBER_PER_MINUTE } from '#plugins/app/notifier.js'

const ZWSP = '\u200b'

/** What a chat would turn into a mention, a link or an image. */
function hostile (text: string, flavor: 'slack' | 'mattermost' = 'mattermost') {
  return {
    mention: /(^|[^\w])@(channel|here|all|everyone|[a-z])/i.test(text) || /<!/.test(text),
    // an angle bracket the chat reads as one (Slack: any; Mattermost: one not escaped)
    slackLink: flavor === 'slack' ? /</.test(text) : /(^|[^\\])</.test(text),
    // (Slack's mrkdwn has no such links: there it is text)
    markdownLink: flavor === 'mattermost' && /(^|[^\\])\[[^\]]*(^|[^\\])\]\(/.test(text),
    bareUrl: /https?:\/\/|www\./i.test(text),
    newline: /[\r\n\u2028\u2029]/.test(text),
    bidi: /[\u202a-\u202e\u2066-\u2069]/.test(text)
  }
}
const clean = {
  mention: false,
  slackLink: false,
  markdownLink: false,
  bareUrl: false,
  newline: false,
  bidi: false
}

const attacks = [
  '@channel Probe fällt aus',
  '<!here> <!channel>',
  '<https://evil.example/login|Rechnung öffnen>',
  '[Rechnung öffnen](https://evil.example/login)',
  '![](https://evil.example/pixel.png)',
  'Titel\n\n**Neues Passwort:** https://evil.example',
  'www.evil.example \u202egnp.exe',
  '\u001b]52;c;ZWNobyBodWh1\u0007@all'
]

test('chat text: mentions, links, images, line breaks and bidi are inert, per target', () => {
  assert.equal(chatFlavor('https://hooks.slack.com/services/T/B/x'), 'slack')
  assert.equal(chatFlavor('https://chat.band.example/hooks/abc'), 'mattermost')
  for (const flavor of ['slack', 'mattermost'] as const) {
    for (const attack of attacks) {
      const out = chatText(attack, flavor)
      assert.deepEqual(hostile(out, flavor), clean, `${flavor}: ${JSON.stringify(out)}`)
      // Still readable: the words are there once the invisible break-ups are removed.
      assert.ok(out.replaceAll(ZWSP, '').length > 0)
    }
  }
  // Slack: exactly its three entities
  assert.equal(chatText('Rock & <Roll>', 'slack'), 'Rock &amp; &lt;Roll&gt;')
  // Mattermost: Markdown punctuation escaped, ordinary text untouched
  assert.equal(chatText('*Hit* [x](y)', 'mattermost'), '\\*Hit\\* \\[x\\]\\(y\\)')
  assert.equal(chatText('Über den Wolken', 'mattermost'), 'Über den Wolken')
  // one line, capped
  assert.equal(chatText('a\r\nb\tc', 'slack'), 'a b c')
  const long = chatText('x'.repeat(500), 'slack')
  assert.equal([...long].length, NOTICE_FIELD_MAX)
  assert.ok(long.endsWith('…'))
})

test('chat notices: every member field is escaped; the one link is PUBLIC_URL\'s', () => {
  const evil = '[Klick](https://evil.example) @channel\n<!here>'
  for (const [flavor, language] of [
    ['slack', 'de'], ['mattermost', 'de'], ['slack', 'en'], ['mattermost', 'en']
  ] as const) {
    const text = noticeText(
      {
        type: 'song.proposed',
        song: { id: 7, title: evil, artist: evil },
        by: evil
      },
      { baseUrl: 'https://band.example.org', flavor, language }
    )
    const [body, link, ...rest] = text.split('\n')
    assert.deepEqual(rest, [])
    assert.equal(link, 'https://band.example.org/app/songs/7')
    assert.deepEqual(hostile(body!, flavor), clean, `${flavor}: ${body}`)
    const gig = noticeText(
      {
        type: 'gig.created',
        gig: {
          id: 3,
          name: evil,
          date: '2026-07-04',
          startTime: null,
          venueName: evil,
          venueCity: evil
        }
      },
      { flavor, language }
    )
    assert.deepEqual(hostile(gig, flavor), clean, `${flavor}: ${gig}`)
  }
})

test('chat notices through the app: escaped, and at most N per member per minute', async (t) => {
  const texts: string[] = []
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c.toString('utf8')))
    req.on('end', () => {
      texts.push((JSON.parse(body) as { text: string }).text)
      res.end('ok')
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  t.after(() => new Promise((resolve) => server.close(resolve)))
  const { port } = server.address() as AddressInfo
  const ctx = await createTestApp(
    {},
    { NOTIFY_WEBHOOK_URL: `http://127.0.0.1:${port}/hooks/x`, PUBLIC_URL: 'https://band.example' }
  )
  t.after(() => ctx.close())
  const mia = await userClient(ctx.app, 'mia')
  const eddie = await userClient(ctx.app, 'eddie', 'editor')
  const renamed = await mia.put('/update_user', { displayName: '@channel <!here>\nMia' })
  assert.equal(renamed.statusCode, 200, renamed.body)

  const survey = (title: string) =>
    mia.post('/surveys', { title, kind: 'poll', options: [{ label: 'ja' }, { label: 'nein' }] })
  const first = await survey('![](https://evil.example/p.png) [Login](https://evil.example)')
  assert.equal(first.statusCode, 201)
  await ctx.app.notifier!.idle()
  assert.equal(texts.length, 1)
  const [body, link] = texts[0]!.split('\n')
  assert.equal(link, `https://band.example/app/surveys/${json<Ok<'/surveys', 'post'>>(first).id}`)
  assert.deepEqual(hostile(body!), clean, body)
  assert.match(body!, /Neue Umfrage von @\u200bchannel/)

  // A loop of surveys: the writes succeed, the chat hears of the first N in the minute only.
  for (let i = 0; i < NOTICES_PER_MEMBER_PER_MINUTE + 5; i++) {
    assert.equal((await survey(`Umfrage ${i}`)).statusCode, 201)
  }
  await ctx.app.notifier!.idle()
  assert.equal(texts.length, NOTICES_PER_MEMBER_PER_MINUTE)
  assert.equal(ctx.app.notifier!.stats.limited, 6)
  // another member is not held up by Mia's flood
  assert.equal((await eddie.post('/gigs', { name: 'Fest', date: '2026-07-04' })).statusCode, 201)
  await ctx.app.notifier!.idle()
  assert.equal(texts.length, NOTICES_PER_MEMBER_PER_MINUTE + 1)
  assert.match(texts.at(-1)!, /Neuer Auftritt: „Fest“/)
})
