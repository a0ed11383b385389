import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer } from '#test/server-process.js'
import { launchBrowser } from '#test/browser/harness.js'

const ADMIN_PASSWORD = 'browser test admin password 2026'

test(
  'Swagger UI in a real browser: every tag shown, log in via "Try it out", then GET /me',
  { timeout: 120_000 },
  async (t) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bandstand-browser-'))
    const server = await startServer({ DATA_DIR: dataDir, ADMIN_PASSWORD })
    t.after(async () => {
      await server.stop()
      rmSync(dataDir, { recursive: true, force: true })
    })
    const spec = (await (await fetch(`${server.base}/docs/json`)).json()) as {
      paths: Record<string, Record<string, { tags?: string[] }>>
    }
    const usedTags = new Set(
      Object.values(spec.paths).flatMap((ops) => Object.values(ops).flatMap((op) => op.tags ?? []))
    )

    const browser = await launchBrowser()
    t.after(() => browser.close())
    const page = await browser.newPage()
    const consoleErrors: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text())
    })
    await page.goto(`${server.base}/docs`)
    await page.waitForSelector('.opblock-tag', { timeout: 30_000 })
    // From 150 tags and operations on, Swagger UI renders only what is in view (its virtual
    // list): the tags are read while the page scrolls to its end, then it goes back to the top.
    const shownTags = new Set<string>()
    for (let step = 0; step < 400; step++) {
      for (const tag of await page.$$eval('.opblock-tag', (nodes) =>
        nodes.map((n) => n.getAttribute('data-tag') ?? ''))) shownTags.add(tag)
      const atEnd = await page.evaluate(() => {
        const before = window.scrollY
        window.scrollBy(0, window.innerHeight / 2)
        return window.scrollY === before
      })
      if (atEnd) break
      await page.waitForTimeout(20)
    }
    await page.evaluate(() => window.scrollTo(0, 0))
    for (const tag of usedTags) assert.ok(shownTags.has(tag), `tag ${tag} shown`)

    const execute = async (method: string, path: string, body?: string) => {
      const operation = page
        .locator(`.opblock-${method}:has(.opblock-summary-path[data-path="${path}"])`)
        .first()
      await operation.locator('.opblock-summary').click()
      await operation.locator('button.try-out__btn').click()
      if (body !== undefined) await operation.locator('textarea.body-param__text').fill(body)
      await operation.locator('button.execute').click()
      const status = operation
        .locator('.live-responses-table .response .response-col_status')
        .first()
      await status.waitFor({ timeout: 30_000 })
      return {
        status: (await status.innerText()).trim(),
        body: await operation
          .locator('.live-responses-table .response-col_description pre')
          .first()
          .innerText()
      }
    }

    const login = await execute(
      'post',
      '/login',
      JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD })
    )
    assert.equal(login.status, '200', login.body)
    const cookies = await page.context().cookies()
    assert.ok(
      cookies.some((c) => c.name === 'access_token' && c.httpOnly),
      'httpOnly session cookie stored by the browser'
    )

    const me = await execute('get', '/me')
    assert.equal(me.status, '200', me.body)
    assert.match(me.body, /"username": "admin"/)
    assert.deepEqual(
      consoleErrors.filter((e) => /Content Security Policy/i.test(e)),
      [],
      'no CSP violations'
    )
  }
)
