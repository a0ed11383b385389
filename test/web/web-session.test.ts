import { test } from 'node:test'
import assert from 'node:assert/strict'
import { setTimeout as sleep } from 'node:timers/promises'
import { ApiSession } from '#test/browser/api-client.js'
import { ADMIN_PASSWORD, bandInBrowser } from '#test/browser/band-fixture.js'
import {
  checkA11y,
  chooseEnglish,
  logInAs,
  screenshot
} from '#test/browser/harness.js'

const WRONG_LOGIN = {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: '{"username":"x","password":"y"}'
}

/**
 * Uses up the login limit (10 a minute per client address; the browser and this script share
 * 127.0.0.1) in a window with at least `seconds` still to run. The limit's window is fixed and
 * starts with the address's first login of the test run (the band's set-up): sending ten logins
 * blind reached it or not depending on how long the earlier steps took, and a window that ended
 * just after the tenth let the browser's login through (a flaky test under load). The server
 * says when its window ends (x-ratelimit-reset, retry-after); one that ends too soon is waited out
 * and a fresh one used up.
 */
async function useUpLoginLimit (base: string, seconds = 30): Promise<void> {
  for (;;) {
    const first = await fetch(`${base}/login`, WRONG_LOGIN)
    const ends = Number(first.headers.get('x-ratelimit-reset'))
    assert.ok(Number.isInteger(ends), 'the server says when the limit\'s window ends')
    if (ends < seconds) {
      await sleep((ends + 1) * 1000)
      continue
    }
    let answer = first
    for (let i = 0; i < 10 && answer.status !== 429; i++) {
      answer = await fetch(`${base}/login`, WRONG_LOGIN)
    }
    assert.equal(answer.status, 429, 'the 11th login in a minute is refused')
    assert.ok(Number(answer.headers.get('retry-after')) >= seconds - 5, 'the window runs on')
    return
  }
}

// The session rules of docs/web.md in a real browser: one silent POST /refresh on a 401, then the
// request again; a session that cannot be refreshed leads to the login page and back, with what was
// typed kept; the login rate limit in plain words.
test(
  'web app session: silent refresh, lost session and back, rate limit',
  { timeout: 300_000 },
  async (t) => {
    const { band, app } = await bandInBrowser(t)
    const { base, member } = band
    const { page } = app
    const refreshes: number[] = []
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === '/refresh') refreshes.push(response.status())
    })
    app.allowHttpError('/me', 401)
    app.allowHttpError('/refresh', 401)
    // The deep link without a session: the gig page's own reads (the gig, its setlist's
    // publication…) may leave before the layout has sent it to the login page. A session ended
    // elsewhere meets the gig pack's background save (its PDFs, live view, files) the same way.
    app.allowHttpError(/^\/(gigs|gigs_lm|files)\/\d+(\/[\w/.-]+)?$/, 401)

    await t.test(
      'a deep link without a session goes to the login page and, after logging in, back',
      async () => {
        await page.goto(`${base}/app/gigs/${band.gig.id}`)
        await page.waitForURL(new RegExp(`/app/login\\?next=%2Fapp%2Fgigs%2F${band.gig.id}$`))
        await chooseEnglish(page)
        assert.equal(
          await page.getByText('Your session has ended').count(),
          0,
          'a first visit is no ended session'
        )
        await logInAs(page, base, member.username, member.password)
        await page.getByRole('heading', { level: 1, name: band.gig.name }).waitFor()
        assert.equal(new URL(page.url()).pathname, `/app/gigs/${band.gig.id}`)
      }
    )

    await t.test(
      'an expired access token is refreshed silently, once, and the request repeated',
      async () => {
        refreshes.length = 0
        await app.context.clearCookies({ name: 'access_token' })
        app.allowHttpError('/gigs', 401)
        await page
          .getByRole('navigation', { name: 'Main' })
          .getByRole('link', { name: 'Gigs', exact: true })
          .click()
        await page.getByRole('link', { name: new RegExp(band.laterGig.name) }).waitFor()
        assert.deepEqual(refreshes, [200], 'exactly one POST /refresh')
        assert.ok(
          (await app.context.cookies()).some((c) => c.name === 'access_token'),
          'a new access token'
        )
        assert.equal(new URL(page.url()).pathname, '/app/gigs', 'no detour to the login page')
      }
    )

    await t.test(
      'a session ended elsewhere: to the login page and back, what was typed kept',
      async () => {
        await page
          .getByRole('navigation', { name: 'Main' })
          .getByRole('link', { name: 'Me', exact: true })
          .click()
        await page.getByLabel('Display name').fill('Mia from the draft')
        // The session is ended from another device (as after "log out this device" there).
        const other = await ApiSession.login(base, member.username, member.password)
        const sessions = (await other.get('/me/sessions')) as {
          id: number
          current: boolean
          userAgent: string | null
        }[]
        const browserSession = sessions.find((s) => !s.current && /Chrome/.test(s.userAgent ?? ''))!
        // Offline data of the member on this phone (as a gig pack leaves it).
        const { id } = (await other.get('/me')) as { id: number }
        await page.evaluate(async (name) => {
          await (await caches.open(name)).put('/__probe', new Response('a gig pack'))
        }, `bandstand-user-${id}`)
        await other.ok('DELETE', `/me/sessions/${browserSession.id}`)
        refreshes.length = 0
        app.allowHttpError('/update_user', 401)
        await page.getByRole('button', { name: 'Save profile' }).click()
        await page.waitForURL(/\/app\/login\?next=%2Fapp%2Fme$/)
        await page.getByText('Your session has ended. Please log in again').waitFor()
        // The server ended it: the member's offline data goes, as at a logout.
        await page.waitForFunction(async () =>
          !(await caches.keys()).some((name) => name.startsWith('bandstand-user-')))
        assert.deepEqual(refreshes, [401], 'one refresh was tried')
        await checkA11y(page, 'login after a lost session')
        await screenshot(page, 'session-ended-phone')
        await logInAs(page, base, member.username, member.password)
        await page.getByRole('heading', { level: 1, name: 'Me' }).waitFor()
        assert.equal(
          await page.getByLabel('Display name').inputValue(),
          'Mia from the draft',
          'the typed value survived'
        )
        await page.getByRole('button', { name: 'Save profile' }).click()
        await page.getByRole('status').filter({ hasText: 'Profile saved' }).waitFor()
        assert.equal((await other.get('/me')).displayName, 'Mia from the draft')
      }
    )

    await t.test(
      'another member logging in on the same tab does not get those drafts',
      async () => {
        await page.getByLabel('Display name').fill('Typed by Mia')
        const other = await ApiSession.login(base, member.username, member.password)
        for (const s of (await other.get('/me/sessions')) as { id: number; current: boolean }[]) {
          if (!s.current) await other.ok('DELETE', `/me/sessions/${s.id}`)
        }
        await page.getByRole('button', { name: 'Save profile' }).click()
        await page.waitForURL(/\/app\/login/)
        await logInAs(page, base, 'lena', 'our singer leads the band since 2019')
        await page.getByRole('heading', { level: 1, name: 'Me' }).waitFor()
        assert.equal(await page.getByLabel('Display name').inputValue(), 'Lena')
        const nav = page.getByRole('navigation', { name: 'Main' })
        assert.equal(await nav.getByRole('link', { name: 'Admin' }).count(), 0, 'editors: no Admin')
        await page.getByRole('button', { name: 'Log out', exact: true }).click()
        await page.getByRole('button', { name: 'Log in' }).waitFor()
      }
    )

    await t.test('the admin sees the Admin link in the navigation', async () => {
      // The admin's dashboard reads its setup checklist after the first paint: that read ends
      // before the session does (else it is answered 401 after the logout).
      const checklist = page.waitForResponse((r) => new URL(r.url()).pathname === '/admin/setup')
      await logInAs(page, base, 'admin', ADMIN_PASSWORD)
      const nav = page.getByRole('navigation', { name: 'Main' })
      await nav.getByRole('link', { name: 'Admin' }).waitFor()
      await checklist
      await page.getByRole('button', { name: 'Log out', exact: true }).click()
      await page.getByRole('button', { name: 'Log in' }).waitFor()
    })

    await t.test('too many logins: the wait in plain words', async () => {
      await useUpLoginLimit(base)
      app.allowHttpError('/login', 429)
      await page.getByLabel('Username').fill(member.username)
      await page.getByLabel('Password', { exact: true }).fill(member.password)
      await page.getByRole('button', { name: 'Log in' }).click()
      const alert = page
        .getByRole('alert')
        .filter({ hasText: /^Too many attempts\. Please wait (\d+ seconds|a minute)/ })
      await alert.waitFor()
      assert.equal(await page.getByLabel('Username').inputValue(), member.username)
      await checkA11y(page, 'rate-limited login')
      app.assertClean()
    })
  }
)
