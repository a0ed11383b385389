import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { runCli } from '#src/cli.js'
import { ApiSession } from '#test/browser/api-client.js'
import { startServer, type ServerProcess } from '#test/server-process.js'
import { ADMIN_PASSWORD, startBand } from '#test/browser/band-fixture.js'
import {
  checkA11y,
  chooseEnglish,
  DESKTOP,
  launchBrowser,
  logInAs,
  openApp,
  PHONE,
  screenshot
} from '#test/browser/harness.js'
import { DEMO_PASSWORDS, libreStageDemo } from '#test/librestage-fixture.js'

// Moving in from libreStage: members log in with their old password; one below Bandstand's policy
// is changed first, on a screen that says why (phone and desktop, English and German).

const NEW_PASSWORD = 'the new shirts are black after all'

async function changeFirst (page: Page, current: string, next: string, submit: RegExp) {
  await page.getByLabel(/^(Current password|Aktuelles Passwort)/).fill(current)
  await page.getByLabel(/^(New password|Neues Passwort)$/).fill(next)
  await page.getByLabel(/^(Repeat new password|Neues Passwort wiederholen)/).fill(next)
  await page.getByRole('button', { name: submit }).click()
}

test(
  'web app: an imported member changes a short password first, then answers with a comment',
  { timeout: 300_000 },
  async (t) => {
    const band = await startBand()
    const dir = mkdtempSync(join(tmpdir(), 'bandstand-web-librestage-'))
    const browser = await launchBrowser()
    const restarted: ServerProcess[] = []
    t.after(async () => {
      await browser.close()
      for (const server of restarted) await server.stop()
      await band.stop()
      rmSync(dir, { recursive: true, force: true })
    })
    // The libreStage demo imported into the band (--force: it holds the band's data). One process
    // per DATA_DIR: the band's server stops for the import and starts again where the browser
    // expects it (the same port, the same sessions).
    const { file } = libreStageDemo(dir)
    await band.server.stop()
    const out: string[] = []
    const code = await runCli(
      ['import-librestage', file, '--force'],
      { DATA_DIR: band.dataDir },
      { out: (l) => out.push(l), err: (l) => out.push(l) }
    )
    assert.equal(code, 0, out.join('\n'))
    restarted.push(await startServer({
      DATA_DIR: band.dataDir,
      ADMIN_PASSWORD,
      BAND_LOCALE: 'de-DE',
      TZ: 'Europe/Berlin',
      PORT: new URL(band.base).port
    }))
    const musicians = out
      .filter((l) => /^ {2}\S+: .*, (editor|member), active$/.test(l))
      .map((l) => l.trim().split(':')[0]!)
    assert.ok(musicians.length >= 2, out.join('\n'))
    const [english, german] = musicians

    await t.test('English, phone: the change comes first and says why', async () => {
      const app = await openApp(browser, band.base, PHONE)
      const { page } = app
      app.allowHttpError(/.*/, 403)
      app.allowHttpError('/change_password', 400)
      await page.goto(`${band.base}/app/login`)
      await chooseEnglish(page)
      await logInAs(page, band.base, english!, DEMO_PASSWORDS.musician)
      await page.getByRole('heading', { level: 1, name: 'Choose your own password' }).waitFor()
      await page.getByText(/shorter than the 15 characters Bandstand asks for/).waitFor()
      assert.equal(await page.getByRole('navigation', { name: 'Main' }).count(), 0, 'no menu')
      await checkA11y(page, 'change password first (en, phone)')
      await screenshot(page, 'password-change-first-en-phone')

      // The old password must not come back, and the policy's words are shown at the field.
      await changeFirst(page, DEMO_PASSWORDS.musician, 'Demo12345!', /Save new password/)
      await page.getByText(/needs at least 15 characters/).first().waitFor()
      await changeFirst(page, DEMO_PASSWORDS.musician, NEW_PASSWORD, /Save new password/)
      await page.getByRole('navigation', { name: 'Main' }).waitFor()
      await page.getByRole('heading', { level: 1, name: /^Hello/ }).waitFor()
      const api = await ApiSession.login(band.base, english!, NEW_PASSWORD)
      assert.equal((await api.get('/me')).passwordChangeRequired, false)

      // Then the survey: the imported answers' comments with the results, and one of her own.
      let comment: string | undefined
      for (const { id } of (await api.get('/surveys')) as Array<{ id: number }>) {
        const results = (await api.get(`/surveys/${id}`)).results as Array<{
          answers: Array<{ comment: string | null }>
        }>
        comment = results.flatMap((r) => r.answers).find((a) => a.comment)?.comment ?? undefined
        if (comment) {
          await page.goto(`${band.base}/app/surveys/${id}`)
          break
        }
      }
      assert.ok(comment, 'an imported answer with a comment')
      await page.getByRole('list', { name: 'Comments' }).getByText(comment).first().waitFor()
      await screenshot(page, 'survey-imported-comments-en-phone')
      await page.goto(`${band.base}/app/surveys/${band.survey.id}`)
      await page.getByRole('radio', { name: 'Black' }).check()
      await page.getByLabel('Comment (optional)').fill('Black hides the sweat')
      await page.getByRole('button', { name: 'Send answer' }).click()
      await page.getByRole('list', { name: 'Comments' }).getByText('Black hides the sweat')
        .waitFor()
      await checkA11y(page, 'survey with a comment (en, phone)')
      await screenshot(page, 'survey-comment-en-phone')
      const detail = await api.get(`/surveys/${band.survey.id}`)
      assert.deepEqual(
        detail.myResponse.map((a: { value: string; comment: string }) => [a.value, a.comment]),
        [['yes', 'Black hides the sweat']]
      )
      app.assertClean()
      await app.context.close()
    })

    await t.test('German, desktop: the same screen in German', async () => {
      const app = await openApp(browser, band.base, DESKTOP, { locale: 'de-DE' })
      const { page } = app
      app.allowHttpError(/.*/, 403)
      await page.goto(`${band.base}/app/login`)
      await page.getByRole('combobox', { name: /^(Language|Sprache)$/ }).selectOption('de')
      await page.getByLabel('Benutzername').fill(german!)
      await page.getByLabel('Passwort', { exact: true }).fill(DEMO_PASSWORDS.musician)
      await page.getByRole('button', { name: 'Anmelden' }).click()
      await page.getByRole('heading', { level: 1, name: 'Wähle dein eigenes Passwort' }).waitFor()
      await page.getByText(/kürzer als die 15 Zeichen, die Bandstand verlangt/).waitFor()
      await checkA11y(page, 'change password first (de, desktop)')
      await screenshot(page, 'password-change-first-de-desktop')
      await changeFirst(page, DEMO_PASSWORDS.musician, NEW_PASSWORD, /Neues Passwort speichern/)
      const nav = page.getByRole('navigation', { name: 'Hauptmenü' })
      await nav.waitFor()
      const api = await ApiSession.login(band.base, german!, NEW_PASSWORD)
      assert.equal((await api.get('/me')).passwordChangeRequired, false)

      // An admin sets the flag while she works: the next request leads to the same screen.
      const { id } = await api.get('/me')
      await band.admin.ok('PATCH', `/users/${id}`, { passwordChangeRequired: true })
      // Within the app (no reload): the 403 PASSWORD_CHANGE_REQUIRED of the gig list does it.
      await nav.getByRole('link', { name: 'Gigs', exact: true }).click()
      await page.getByRole('heading', { level: 1, name: 'Wähle dein eigenes Passwort' }).waitFor()
      assert.equal(await nav.count(), 0, 'no menu')
      app.assertClean()
      await app.context.close()
    })

    await t.test('admin, phone: the badge of a member held to a new password', async () => {
      const app = await openApp(browser, band.base, PHONE)
      const { page } = app
      await page.goto(`${band.base}/app/login`)
      await chooseEnglish(page)
      await logInAs(page, band.base, 'admin', ADMIN_PASSWORD)
      await page.goto(`${band.base}/app/admin/users`)
      // The member held above carries the badge (the New user form: web-invitations.test.ts).
      await page.getByRole('link', { name: new RegExp(`@${german}.*new password due`) }).waitFor()
      app.assertClean()
      await app.context.close()
    })
  }
)
