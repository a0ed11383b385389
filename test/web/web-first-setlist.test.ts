import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Locator } from 'playwright-core'
import { startServer } from '#test/server-process.js'
import { ApiSession, dayFromNow } from '#test/browser/api-client.js'
import { checkA11y, DESKTOP, launchBrowser, openApp, screenshot } from '#test/browser/harness.js'

const PASSWORD = 'first setlist admin password 2026'
/** The most clicks a first three-song setlist may take (docs/web.md). */
const MAX_CLICKS = 12

// The short path to a first three-song setlist on a fresh install, as a new band leader walks it:
// log in, the setup checklist's "Your first gig", the gig's two fields, "Edit setlist", and each
// song typed into the editor's search and made with "New song" (no song needs to exist first).
// Every click goes through `click`, which counts; the test fails over MAX_CLICKS.
test('web app: a first three-song setlist on a fresh install in at most 12 clicks',
  { timeout: 600_000 },
  async (t) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bandstand-first-setlist-'))
    const server = await startServer({ DATA_DIR: dataDir, ADMIN_PASSWORD: PASSWORD, TZ: '' })
    const browser = await launchBrowser()
    t.after(async () => {
      await browser.close()
      await server.stop()
      rmSync(dataDir, { recursive: true, force: true })
    })
    const base = server.base
    const app = await openApp(browser, base, DESKTOP, { locale: 'en-GB' })
    app.allowHttpError('/me', 401)
    app.allowHttpError('/refresh', 401)
    const { page } = app
    let clicks = 0
    let fields = 0
    const click = async (target: Locator) => {
      clicks += 1
      await target.click()
    }
    const fill = async (target: Locator, value: string) => {
      fields += 1
      await target.fill(value)
    }

    await page.goto(`${base}/app/login`)
    await fill(page.getByLabel('Username'), 'admin')
    await fill(page.getByLabel('Password', { exact: true }), PASSWORD)
    await click(page.getByRole('button', { name: 'Log in' }))
    await page.waitForURL((url) => !url.pathname.startsWith('/app/login'))

    const checklist = page.getByRole('region', { name: 'Get your band started' })
    await click(checklist.getByRole('link', { name: 'Your first gig' }))
    await page.getByRole('heading', { level: 1, name: 'New gig' }).waitFor()
    await fill(page.getByLabel('Name', { exact: true }), 'First Wedding')
    await fill(page.getByLabel('Date', { exact: true }), dayFromNow(30))
    await click(page.getByRole('button', { name: 'Save', exact: true }))
    await page.getByRole('heading', { level: 1, name: 'First Wedding' }).waitFor()
    const gigId = Number(/\/gigs\/(\d+)/.exec(page.url())![1])

    await click(page.getByRole('link', { name: 'Edit setlist' }))
    await page.getByRole('heading', { level: 1, name: 'Setlist: First Wedding' }).waitFor()
    const find = page.getByRole('searchbox', { name: 'Find song' })
    const titles = ['Can’t Help Falling in Love', 'September', 'Dancing Queen']
    for (const title of titles) {
      await fill(find, title)
      await click(page.getByRole('button', { name: `New song “${title}”` }))
      await page.locator('[data-entry]').filter({ hasText: title }).waitFor()
    }
    await checkA11y(page, 'first setlist')
    await screenshot(page, 'first-setlist-desktop')
    await click(page.getByRole('button', { name: 'Save setlist' }))
    await page.getByText('All changes saved').waitFor()

    const api = await ApiSession.login(base, 'admin', PASSWORD)
    const setlist = await api.get(`/gigs/${gigId}/setlist`)
    assert.deepEqual(
      setlist.sets.flatMap((set: { entries: { title: string; songId: number | null }[] }) =>
        set.entries.map((entry) => [entry.title, typeof entry.songId])),
      titles.map((title) => [title, 'number'])
    )
    const songs: { title: string }[] = await api.get('/songs')
    assert.deepEqual(songs.map((song) => song.title).sort(), [...titles].sort())
    console.log(`first three-song setlist: ${clicks} clicks, ${fields} fields`)
    assert.ok(clicks <= MAX_CLICKS, `${clicks} clicks (at most ${MAX_CLICKS})`)
    assert.equal(clicks, 8, 'the path of docs/web.md')
    assert.equal(fields, 7, 'the fields of docs/web.md')
  })
