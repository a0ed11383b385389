import { test } from 'node:test'
import assert from 'node:assert/strict'
import { DESKTOP, PHONE, checkA11y, launchBrowser, screenshot } from '#test/browser/harness.js'
import {
  inDays,
  mailingBand,
  settle,
  textOf,
  toOf
} from '#test/plugins/notifications/member-mail-fixtures.js'

// The one-click answer page of a mail, in Chromium: a 360 px phone with JavaScript off records an
// answer through the plain form; axe finds no serious problem in English or German.

for (const locale of ['en-GB', 'de-DE']) {
  test(`the answer page works without JavaScript on a phone (${locale})`, async (t) => {
    const band = await mailingBand(t, { members: 1, locale })
    const gig = await band.boss.post('/gigs', {
      name: 'Harbour Fest', date: inDays(30), startTime: '20:00', venue: { name: 'Pier 7' }
    })
    await settle(band.app)
    const mail = (await band.parsed()).find((m) => toOf(m)[0] === 'm1@example.org')!
    const link = new URL(/https:\/\/band\.example\.org\/answer\/\S+\?a=maybe/.exec(textOf(mail))![0])
    const base = await band.app.listen({ port: 0, host: '127.0.0.1' })
    const browser = await launchBrowser()
    t.after(() => browser.close())

    const lang = locale.slice(0, 2)
    for (const viewport of [PHONE, DESKTOP]) {
      const context = await browser.newContext({ viewport, locale })
      const page = await context.newPage()
      await page.goto(base + link.pathname + link.search)
      await checkA11y(page, `answer page ${lang} ${viewport.width}`)
      await screenshot(page, `answer-page-${lang}-${viewport.width}`)
      await context.close()
    }

    const context = await browser.newContext({ viewport: PHONE, locale, javaScriptEnabled: false })
    const page = await context.newPage()
    await page.goto(base + link.pathname + link.search)
    // Nothing wider than the phone.
    const width = await page.evaluate(() => document.documentElement.scrollWidth)
    assert.ok(width <= PHONE.width, `page width ${width}`)
    assert.ok(await page.locator('input[value="maybe"]').isChecked())
    await page.locator('input[value="yes"]').check()
    await page.locator('textarea').fill('bringing the cajón')
    await page.locator('button[type="submit"]').click()
    await page.locator('[role="status"]').waitFor()
    await screenshot(page, `answer-page-${lang}-saved`)
    const answers = (await band.boss.get(`/gigs/${gig.json().id}/availability`)).json().answers
    const mine = answers.find((a: { userId: number }) => a.userId === band.members[0]!.id)
    assert.equal(mine.status, 'yes')
    assert.equal(mine.note, 'bringing the cajón')
    await context.close()
  })
}
