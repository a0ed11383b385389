import { test } from 'node:test'
import assert from 'node:assert/strict'
import { checkA11y, launchBrowser, logInAs, openApp, screenshot } from '#test/browser/harness.js'
import { bandToday, createTestApp, createUser, login, PASSWORD } from '#test/helpers.js'

// A Pi on the band's LAN without a proxy: http://pi.local is no secure context (no cache storage,
// no service worker), so "Save for offline" cannot work there; the gig page says what it takes.

test('over plain HTTP on a LAN name the gig page says an offline copy needs HTTPS', async (t) => {
  const ctx = await createTestApp({}, { LOG_LEVEL: 'silent' })
  await ctx.app.listen({ host: '127.0.0.1', port: 0 })
  const port = (ctx.app.server.address() as { port: number }).port
  // pi.local resolves to this machine, as mDNS would resolve the Pi.
  const browser = await launchBrowser(['--host-resolver-rules=MAP pi.local 127.0.0.1'])
  t.after(async () => {
    await browser.close()
    await ctx.close()
  })
  await createUser(ctx.app, 'mia', 'member')
  const editor = await login(ctx.app, await createUser(ctx.app, 'lena', 'editor'))
  const gig = await editor.post('/gigs', {
    name: 'Barn Night', date: bandToday(ctx.app), startTime: '20:00', status: 'confirmed'
  })
  assert.equal(gig.statusCode, 201, gig.body)

  const base = `http://pi.local:${port}`
  const phone = await openApp(browser, base)
  phone.allowHttpError('/me', 401)
  phone.allowHttpError('/refresh', 401)
  const { page } = phone
  await page.goto(`${base}/app/login`)
  await page.getByRole('combobox', { name: /^(Language|Sprache)$/ }).selectOption('en')
  await logInAs(page, base, 'mia', PASSWORD)
  await page.goto(`${base}/app/gigs/${gig.json().id}`)
  await page.getByRole('heading', { name: 'Barn Night', level: 1 }).waitFor()
  assert.equal(await page.evaluate(() => isSecureContext), false)
  await page.getByText('Offline copy needs HTTPS — see Admin → Setup.').waitFor()
  assert.equal(await page.getByRole('button', { name: 'Save for offline' }).count(), 0)
  await checkA11y(page, 'gig page over plain HTTP')
  await screenshot(page, 'web-offline-needs-https')
  phone.assertClean()
  await phone.context.close()
})
