import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { dayFromNow } from '#test/browser/api-client.js'
import { ADMIN_PASSWORD, MEMBER_PASSWORD } from '#test/browser/band-fixture.js'
import {
  checkA11y, launchBrowser, screenshot
} from '#test/browser/harness.js'
import { pageOpener } from '#test/browser/logged-in.js'
import { editorLogin, startLiveBand } from '#test/browser/live-fixture.js'

// The stage view on phones as a band uses it: the chart is the first screen (one header line, the
// display settings behind one button, the box down to the window's bottom above the editor's tap
// bar), columns inside the window on a wide screen, the song the phone knew last after an offline
// reload, and small phones whose pages never widen past 360 px.

const WORDS = {
  en: {
    display: 'Display',
    larger: 'Larger text',
    played: 'Played',
    skip: 'Skip',
    undo: 'Undo',
    nowPlaying: 'Now playing',
    offline: /^Offline · last update \d/,
    save: 'Save for offline',
    saved: 'Saved for offline',
    afterShow: 'After the show',
    admin: 'Admin'
  },
  de: {
    display: 'Anzeige',
    larger: 'Größere Schrift',
    played: 'Gespielt',
    skip: 'Auslassen',
    undo: 'Rückgängig',
    nowPlaying: 'Jetzt',
    offline: /^Offline · Stand \d/,
    save: 'Offline speichern',
    saved: 'Offline gespeichert',
    afterShow: 'Nach dem Auftritt',
    admin: 'Verwaltung'
  }
} as const
const SMALL = { width: 360, height: 740 }
const PHONE_390 = { width: 390, height: 844 }
const WIDE = { width: 1280, height: 800 }

// 80 lines: several screens on a phone, several column pairs on a wide screen.
const CHART = (title: string) => [
  `{title: ${title}}`,
  '{soc}',
  '[G]Sing the [C]chorus [D]loud',
  '{eoc}',
  ...Array.from({ length: 80 }, (_, i) => `[G]Line ${i + 1} of [C]this [D]song, it [G]goes on`)
].join('\n')

const openAs = pageOpener()

/** Where the first screen's parts are, in px of the window. */
function layout (page: Page) {
  return page.evaluate(() => {
    const pager = document.querySelector<HTMLElement>('.pager')!
    const first = pager.querySelector('.line, .section-label')!
    const bar = document.querySelector('.tap-bar')
    const head = document.querySelector('.chart-head')!
    return {
      firstLine: first.getBoundingClientRect().top,
      head: head.getBoundingClientRect(),
      pagerBottom: pager.getBoundingClientRect().bottom,
      barTop: bar ? bar.getBoundingClientRect().top : null,
      barBottom: bar ? bar.getBoundingClientRect().bottom : null,
      height: innerHeight,
      pageWidth: document.documentElement.scrollWidth,
      width: innerWidth
    }
  })
}

/** The chart's last line, scrolled into its box: its bottom, and the box's. */
function lastLine (page: Page) {
  return page.evaluate(() => {
    const pager = document.querySelector<HTMLElement>('.pager')!
    pager.scrollTo({ top: pager.scrollHeight, behavior: 'instant' })
    const lines = pager.querySelectorAll('.line')
    const last = lines[lines.length - 1]!.getBoundingClientRect()
    const box = pager.getBoundingClientRect()
    pager.scrollTo({ top: 0, behavior: 'instant' })
    return { bottom: last.bottom, boxBottom: box.bottom }
  })
}

/** One page turn by the keyboard: how far the box moved, and what a page of it is. */
async function pageTurn (page: Page) {
  await page.locator('.gig-name').click()
  await page.keyboard.press('PageDown')
  return page.evaluate(() => {
    const pager = document.querySelector<HTMLElement>('.pager')!
    const style = getComputedStyle(pager)
    const result = {
      top: pager.scrollTop,
      left: pager.scrollLeft,
      height: pager.clientHeight,
      width: pager.clientWidth,
      line: parseFloat(style.fontSize) * 1.5,
      gap: parseFloat(style.columnGap) || 0,
      columns: style.columnCount,
      windowScroll: scrollY
    }
    pager.scrollTo({ top: 0, left: 0, behavior: 'instant' })
    return result
  })
}

/** What reaches past the window's right edge (for the failure message). */
function widest (page: Page) {
  return page.evaluate(() => Array.from(document.querySelectorAll('body *'))
    .filter((e) => e.getBoundingClientRect().right > innerWidth + 0.5)
    .slice(-5)
    .map((e) => `${e.tagName.toLowerCase()}.${e.className} (${e.getBoundingClientRect().right})`)
    .join(', '))
}

/** The offline copy of the live view this phone keeps: its current song's title. */
function keptCurrent (page: Page, gigId: number) {
  return page.evaluate(async (id) => {
    for (const name of await caches.keys()) {
      if (!name.startsWith('bandstand-user-')) continue
      const kept = await (await caches.open(name)).match(`/gigs_lm/${id}`)
      if (kept) return ((await kept.json()) as { current: { title: string } | null }).current?.title
    }
    return null
  }, gigId)
}

test('the stage view on phones: chart first, the last song offline, small screens',
  { timeout: 900_000 }, async (t) => {
    const band = await startLiveBand()
    const browser = await launchBrowser()
    t.after(async () => {
      await browser.close()
      await band.stop()
    })
    const gigId = band.liveGig.id
    const live = `${band.base}/app/gigs/${gigId}/live`
    const songs = (await band.editor.ok('GET', '/songs')) as { id: number; title: string }[]
    for (const song of songs.filter((s) => /^Song 0[1-6]$/.test(s.title))) {
      await band.editor.ok('PATCH', `/songs/${song.id}`, { chart: CHART(song.title) })
    }

    await t.test('chart first at 390×844 and 360×740, English and German', async () => {
      for (const viewport of [PHONE_390, SMALL]) {
        for (const lang of ['en', 'de'] as const) {
          const words = WORDS[lang]
          for (const [who, username, password] of [
            ['member', 'mia', MEMBER_PASSWORD],
            ['editor', editorLogin.username, editorLogin.password]
          ] as const) {
            const app = await openAs(browser, band, viewport, lang, username, password)
            const { page } = app
            const label = `${who} ${viewport.width}×${viewport.height} ${lang}`
            await page.goto(live)
            const region = page.getByRole('region', { name: 'Chart' })
            await region.getByRole('heading', { level: 2 }).getByText('Song 01').waitFor()
            await region.locator('.line').first().waitFor()
            // One header line: title, key, n/N, and the Display button beside them.
            await region.locator('.chart-facts').getByText(/ · 1\/64$/).waitFor()
            const at = await layout(page)
            assert.ok(at.firstLine < at.height / 3,
              `${label}: first chart line at ${at.firstLine} px, within the top third`)
            assert.ok(at.head.height < 80, `${label}: the header is ${at.head.height} px high`)
            assert.ok(at.pageWidth <= at.width, `${label}: the page is ${at.pageWidth} px wide`)
            if (who === 'editor') {
              // Played, Skip, Undo without scrolling; the chart's box ends above them.
              for (const name of [words.played, words.skip, words.undo]) {
                const box = (await page.getByRole('button', { name, exact: true }).boundingBox())!
                assert.ok(box.y >= 0 && box.y + box.height <= at.height,
                  `${label}: ${name} in view`)
              }
              const clipped = await page.locator('.tap-bar button').evaluateAll((buttons) =>
                buttons.filter((b) => b.scrollWidth > b.clientWidth).map((b) => b.textContent))
              assert.deepEqual(clipped, [], `${label}: every tap's word whole`)
              assert.ok(at.pagerBottom <= at.barTop! + 0.5,
                `${label}: the box ends at ${at.pagerBottom}, the bar starts at ${at.barTop}`)
              assert.ok(at.barBottom! <= at.height + 0.5)
              const end = await lastLine(page)
              assert.ok(end.bottom <= at.barTop! + 0.5,
                `${label}: the last line (${end.bottom}) is above the tap bar (${at.barTop})`)
            } else {
              assert.equal(at.barTop, null, 'no tap bar for a member')
              assert.ok(at.pagerBottom <= at.height + 0.5 && at.pagerBottom > at.height - 30,
                `${label}: the box ends at the window's bottom (${at.pagerBottom})`)
            }
            // The display settings behind one button.
            assert.equal(await page.getByRole('button', { name: words.larger }).count(), 0)
            await page.getByRole('button', { name: words.display }).click()
            await page.getByRole('button', { name: words.larger }).waitFor()
            assert.ok((await layout(page)).firstLine < at.height / 2, 'the chart stays in view')
            if (viewport === SMALL) await checkA11y(page, `stage view, Display open, ${label}`)
            await page.getByRole('button', { name: words.display }).click()
            await page.getByRole('button', { name: words.larger }).waitFor({ state: 'hidden' })
            // A page turn is exactly the box, less the line read last.
            const turn = await pageTurn(page)
            assert.ok(Math.abs(turn.top - (turn.height - turn.line)) <= 2,
              `${label}: moved ${turn.top} px for a box of ${turn.height} px`)
            assert.equal(turn.windowScroll, 0, 'the page itself stays')
            await screenshot(page, `stage-first-${who}-${viewport.width}-${lang}`)
            app.assertClean()
            await app.context.close()
          }
        }
      }
    })

    await t.test('a wide screen: two columns inside the window, a page is both', async () => {
      for (const lang of ['en', 'de'] as const) {
        const words = WORDS[lang]
        const app = await openAs(browser, band, WIDE, lang, editorLogin.username,
          editorLogin.password)
        const { page } = app
        await page.goto(live)
        await page.getByRole('region', { name: 'Chart' }).locator('.line').first().waitFor()
        // Room enough: the settings are shown, no Display button.
        await page.getByRole('button', { name: words.larger }).waitFor()
        assert.equal(await page.getByRole('button', { name: words.display }).count(), 0)
        const at = await layout(page)
        assert.ok(at.pagerBottom <= at.barTop! + 0.5, `columns end above the bar (${lang})`)
        assert.ok(at.pageWidth <= at.width)
        const turn = await pageTurn(page)
        assert.equal(turn.columns, '2')
        assert.ok(Math.abs(turn.left - (turn.width + turn.gap)) <= 2,
          `a page turn moved ${turn.left} px for two columns of ${turn.width} px`)
        await screenshot(page, `stage-first-wide-${lang}`)
        app.assertClean()
        await app.context.close()
      }
    })

    await t.test('a phone in landscape: two columns above the tap bar', async () => {
      const app = await openAs(browser, band, { width: 740, height: 360 }, 'en',
        editorLogin.username, editorLogin.password)
      const { page } = app
      await page.goto(live)
      await page.getByRole('region', { name: 'Chart' }).locator('.line').first().waitFor()
      const at = await layout(page)
      assert.ok(at.pagerBottom <= at.barTop! + 0.5,
        `the box ends at ${at.pagerBottom}, the bar starts at ${at.barTop}`)
      assert.ok(at.pageWidth <= at.width)
      const turn = await pageTurn(page)
      assert.equal(turn.columns, '2')
      assert.ok(Math.abs(turn.left - (turn.width + turn.gap)) <= 2)
      await screenshot(page, 'stage-first-landscape')
      app.assertClean()
      await app.context.close()
    })

    await t.test('the last known song offline: four songs played, reload on both phones',
      async () => {
        const member = await openAs(browser, band, PHONE_390, 'en', 'mia', MEMBER_PASSWORD)
        const editor = await openAs(browser, band, SMALL, 'de', editorLogin.username,
          editorLogin.password)
        t.after(async () => {
          await member.context.close()
          await editor.context.close()
        })
        for (const [app, lang] of [[member, 'en'], [editor, 'de']] as const) {
          const { page } = app
          await page.goto(`${band.base}/app/gigs/${gigId}`)
          await page.getByRole('button', { name: WORDS[lang].save }).click()
          await page.getByRole('status').filter({ hasText: WORDS[lang].saved }).waitFor()
          await page.goto(live)
          await page.waitForFunction(() => navigator.serviceWorker.controller !== null)
          await page.getByRole('status', { name: WORDS[lang].nowPlaying, exact: true })
            .getByText('Song 01', { exact: true }).waitFor()
        }
        for (let n = 2; n <= 5; n++) {
          await editor.page.getByRole('button', { name: 'Gespielt' }).click()
          for (const [app, lang] of [[member, 'en'], [editor, 'de']] as const) {
            await app.page.getByRole('status', { name: WORDS[lang].nowPlaying, exact: true })
              .getByText(`Song 0${n}`, { exact: true }).waitFor()
          }
        }
        // Each phone's offline copy follows the live view.
        for (const app of [member, editor]) {
          for (let i = 0; (await keptCurrent(app.page, gigId)) !== 'Song 05'; i++) {
            assert.ok(i < 100, 'the offline copy says Song 05')
            await app.page.waitForTimeout(100)
          }
        }
        // The member's copy was known two minutes ago: the line says so, large and amber.
        await member.page.evaluate(async (id) => {
          for (const name of await caches.keys()) {
            if (!name.startsWith('bandstand-user-')) continue
            const cache = await caches.open(name)
            const kept = await cache.match(`/gigs_lm/${id}`)
            if (!kept) continue
            const headers = new Headers(kept.headers)
            headers.set('date', new Date(Date.now() - 120_000).toUTCString())
            await cache.put(`/gigs_lm/${id}`, new Response(await kept.text(), { headers }))
          }
        }, gigId)
        for (const [app, lang] of [[member, 'en'], [editor, 'de']] as const) {
          const { page } = app
          await page.context().setOffline(true)
          await page.reload()
          const line = page.locator('.stage-bar [role="status"]')
          await line.getByText(WORDS[lang].offline).waitFor()
          await page.getByRole('status', { name: WORDS[lang].nowPlaying, exact: true })
            .getByText('Song 05', { exact: true }).waitFor()
          await page.getByRole('region', { name: 'Chart' }).getByRole('heading', { level: 2 })
            .getByText('Song 05').waitFor()
          const look = await line.evaluate((e) => {
            const style = getComputedStyle(e)
            return { color: style.color, size: parseFloat(style.fontSize) }
          })
          if (app === member) {
            assert.equal(look.color, 'rgb(255, 214, 10)', 'amber after a minute')
            assert.ok(look.size >= 19, `large after a minute (${look.size} px)`)
          } else {
            assert.notEqual(look.color, 'rgb(255, 214, 10)', 'not amber within the minute')
            await page.getByText(/^4 gespielt/).first().waitFor({ state: 'attached' })
          }
          await screenshot(page, `stage-offline-reload-${app === member ? 'member' : 'editor'}`)
        }
      })

    await t.test('small phones: nothing wider than 360 px; seven tabs fit; After the show',
      async () => {
        const titles = songs.slice(0, 10).map((s) => s.id)
        const past = await band.editor.ok('POST', '/gigs', {
          name: 'Sommerfest Gestern', date: dayFromNow(-2), status: 'confirmed', startTime: '20:00'
        })
        const later = await band.editor.ok('POST', '/gigs', {
          name: 'Spätschicht Heute', date: dayFromNow(0), status: 'confirmed', startTime: '23:59'
        })
        for (const gig of [past, later]) {
          await band.editor.ok('PUT', `/gigs/${gig.id}/setlist`, {
            version: 0, sets: [{ name: 'Set 1', entries: titles.map((songId) => ({ songId })) }]
          })
        }
        for (const lang of ['en', 'de'] as const) {
          const words = WORDS[lang]
          const app = await openAs(browser, band, SMALL, lang, 'admin', ADMIN_PASSWORD)
          const { page } = app
          for (const path of ['', 'gigs', `gigs/${past.id}`, `gigs/${later.id}`, 'songs', 'me',
            'rehearsals', 'surveys', 'admin/users', `gigs/${gigId}/live`]) {
            await page.goto(`${band.base}/app/${path}`)
            await page.locator('h1').first().waitFor()
            await page.locator('.spinner').first().waitFor({ state: 'detached' })
            const width = await page.evaluate(() => document.documentElement.scrollWidth)
            assert.ok(width <= 360, `${lang} /${path}: the page is ${width} px wide: ` +
              await widest(page))
          }
          // After the show: the past gig's table scrolls in its card; none before a show began.
          await page.goto(`${band.base}/app/gigs/${past.id}`)
          await page.getByRole('heading', { name: words.afterShow }).waitFor()
          await page.locator('.table-scroll table').last().waitFor()
          assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 360)
          await screenshot(page, `small-phone-after-show-${lang}`)
          await page.goto(`${band.base}/app/gigs/${later.id}`)
          await page.getByRole('heading', { level: 1, name: 'Spätschicht Heute' }).waitFor()
          await page.locator('.spinner').first().waitFor({ state: 'detached' })
          assert.equal(await page.getByRole('heading', { name: words.afterShow }).count(), 0)
          assert.equal(await page.getByText('10 / 10').count(), 0, 'no "10 / 10 played" yet')
          // The tab bar fits: every tab inside the screen, Admin too, no word cut.
          const tabs = page.getByRole('navigation', { name: lang === 'en' ? 'Main' : 'Hauptmenü' })
            .getByRole('link')
          for (const tab of await tabs.all()) {
            const box = (await tab.boundingBox())!
            assert.ok(box.x >= 0 && box.x + box.width <= 360.5, `${lang}: a tab at ${box.x}`)
          }
          const cut = await tabs.evaluateAll((links) => links
            .filter((a) => a.scrollWidth > a.clientWidth + 0.5)
            .map((a) => a.textContent))
          assert.deepEqual(cut, [], `${lang}: every tab's word whole`)
          await tabs.filter({ hasText: words.admin }).click()
          await page.waitForURL('**/app/admin/users')
          await screenshot(page, `small-phone-admin-${lang}`)
          app.assertClean()
          await app.context.close()
        }
      })
  })
