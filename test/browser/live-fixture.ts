/**
 * Gig night in the browser, for the live-mode test and its bench (bench/live-ui.ts): the band of
 * band-fixture.ts with a gig today whose setlist is long enough for 50 taps, phones logged in, and
 * the measuring helpers (when a tap shows on another phone, the server restarted in place).
 */
import assert from 'node:assert/strict'
import type { Browser, Page } from 'playwright-core'
import { startServer } from '#test/server-process.js'
import { ADMIN_PASSWORD, EDITOR_PASSWORD, startBand, type Band } from './band-fixture.js'
import { ApiSession, dayFromNow } from './api-client.js'
import { chooseEnglish, logInAs, openApp, PHONE, WAIT, type AppPage } from './harness.js'

export const SONGS_IN_SHOW = 64
export const OTHER_MEMBER_PASSWORD = 'drums on the left side of the stage'

export interface LiveBand extends Band {
  liveGig: { id: number; name: string; setIds: number[] }
  /** The song not in the setlist, for "Insert song". */
  extraSong: { id: number; title: string }
  tom: { username: string; password: string }
  /** Stops the server (SIGTERM) and starts it again on the same port and data. */
  restart: () => Promise<void>
}

/** The band, a second member (Tom) and tonight's gig: two sets of 32 songs. */
export async function startLiveBand (): Promise<LiveBand> {
  return liveBandOn(await startBand())
}

/**
 * The same on a band already running (the bench's shared one): the band object itself gains the
 * live fields, so that its stop() stops the server a restart started.
 */
export async function liveBandOn (band: Band): Promise<LiveBand> {
  const tom = await band.admin.ok('POST', '/users', {
    username: 'tom',
    displayName: 'Tom',
    role: 'member',
    password: OTHER_MEMBER_PASSWORD,
    isMusician: true,
    instruments: ['Drums']
  })
  // An admin-set password must be changed at first login; Tom's counts as his own.
  await band.admin.ok('PATCH', `/users/${tom.id}`, { passwordChangeRequired: false })
  const songIds: number[] = []
  for (let n = 1; n <= SONGS_IN_SHOW; n++) {
    const song = await band.editor.ok('POST', '/songs', {
      title: `Song ${String(n).padStart(2, '0')}`,
      artist: 'The Band',
      durationSeconds: 180 + n,
      key: n % 2 ? 'A' : 'Em',
      leadSinger: n % 3 ? 'Lena' : 'Mia',
      status: 'ready'
    })
    songIds.push(song.id)
  }
  const extra = await band.editor.ok('POST', '/songs', {
    title: 'Encore Extra',
    artist: 'The Band',
    durationSeconds: 200,
    key: 'G',
    status: 'ready'
  })
  const gig = await band.editor.ok('POST', '/gigs', {
    name: 'Stadtfest Tonight',
    date: dayFromNow(0),
    status: 'confirmed',
    startTime: '20:00'
  })
  const half = SONGS_IN_SHOW / 2
  const setlist = await band.editor.ok('PUT', `/gigs/${gig.id}/setlist`, {
    version: 0,
    sets: [
      { name: 'Set 1', entries: songIds.slice(0, half).map((songId) => ({ songId })) },
      { name: 'Set 2', entries: songIds.slice(half).map((songId) => ({ songId })) }
    ]
  })
  const port = new URL(band.base).port
  return Object.assign(band, {
    liveGig: { id: gig.id, name: gig.name, setIds: setlist.sets.map((s: { id: number }) => s.id) },
    extraSong: { id: extra.id, title: extra.title },
    tom: { username: 'tom', password: OTHER_MEMBER_PASSWORD },
    async restart () {
      await band.server.stop()
      band.server = await startServer({ DATA_DIR: band.dataDir, ADMIN_PASSWORD, PORT: port })
    }
  })
}

/** A phone logged in (in English) as `username`. */
export async function phoneOf (
  browser: Browser,
  base: string,
  username: string,
  password: string,
  viewport = PHONE
): Promise<AppPage> {
  const app = await openApp(browser, base, viewport)
  // Not logged in yet: the app's first GET /me and its silent refresh answer 401.
  app.allowHttpError('/me', 401)
  app.allowHttpError('/refresh', 401)
  await app.page.goto(`${base}/app/login`)
  await chooseEnglish(app.page)
  await logInAs(app.page, base, username, password)
  return app
}

export const editorLogin = { username: 'lena', password: EDITOR_PASSWORD }

/** The current song's entry id on a phone ('' once the show is over). */
export const currentEntry = (page: Page) =>
  page.getByRole('status', { name: 'Now playing' }).locator('[data-entry-id]').first()

/**
 * Records, in the page, when each entry became the current song (Date.now(), the same clock as
 * the test's): a MutationObserver, so the time is the render's, not a poll's.
 */
export async function watchCurrent (page: Page): Promise<void> {
  // A string, not a function: tsx would wrap the named arrows in a helper the page lacks.
  await page.evaluate(`(() => {
    const seen = {}
    window.__arrivals = seen
    const look = () => {
      const id = document.querySelector('.now-card [data-entry-id]')?.getAttribute('data-entry-id')
      if (id !== undefined && id !== null && !(id in seen)) seen[id] = Date.now()
    }
    look()
    new MutationObserver(look).observe(document.body, {
      subtree: true, childList: true, attributes: true, characterData: true
    })
  })()`)
}

/** When `entryId` became current on the page (waits for it). */
export async function arrivalOf (page: Page, entryId: string): Promise<number> {
  try {
    const handle = await page.waitForFunction(
      (id) => (window as unknown as { __arrivals: Record<string, number> }).__arrivals[id],
      entryId,
      { timeout: WAIT, polling: 50 }
    )
    return (await handle.jsonValue()) as number
  } catch (error) {
    // Say what the phone shows instead: which song, which channel, which banner.
    const shows = await page.locator('main').innerText().catch(() => '?')
    throw new Error(`entry ${entryId} never became current; the phone shows:\n${shows}`, {
      cause: error
    })
  }
}

/**
 * `count` taps on the editor's phone (Played, every fifth one Skip), each awaited on every
 * follower's phone; returns the milliseconds from each tap to its arrival on each follower.
 */
export async function tapAndFollow (
  editor: Page,
  followers: Page[],
  count: number
): Promise<number[]> {
  for (const page of followers) await watchCurrent(page)
  const latencies: number[] = []
  for (let n = 1; n <= count; n++) {
    const before = await currentEntry(editor).getAttribute('data-entry-id')
    const expected = await editor
      .getByRole('region', { name: 'Next', exact: true })
      .locator('[data-entry-id]')
      .getAttribute('data-entry-id')
    assert.ok(before && expected, `tap ${n}: a current and a next song`)
    const button = editor.getByRole('button', { name: n % 5 === 0 ? 'Skip' : 'Played' })
    const tapped = Date.now()
    await button.click()
    for (const [index, page] of followers.entries()) {
      try {
        latencies.push((await arrivalOf(page, expected)) - tapped)
      } catch (error) {
        const editorShows = await editor.locator('main').innerText().catch(() => '?')
        throw new Error(
          `tap ${n} (${String(tapped)}), follower ${index}: ${String(error)}\n` +
            `the editor shows:\n${editorShows}`,
          { cause: error }
        )
      }
    }
    // The editor's own phone shows it at once; the next tap starts from the confirmed state.
    await editor.locator(`.now-card [data-entry-id="${expected}"]:not(.sending)`).waitFor()
  }
  return latencies
}

export function percentile (values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

export const apiAs = (band: Band, username: string, password: string) =>
  ApiSession.login(band.base, username, password)

/**
 * The live page's back link fits on one line (at 360 px the German wording once wrapped): its
 * text's box is one line high and ends inside the viewport. The link's own height says nothing:
 * it is at least 48 px, two lines of text.
 */
export async function assertBackLinkOneLine (page: Page, name: string): Promise<void> {
  const link = page.getByRole('link', { name, exact: true })
  const box = await link.evaluate((el) => {
    const range = document.createRange()
    range.selectNodeContents(el)
    const text = range.getBoundingClientRect()
    const style = getComputedStyle(el)
    const line = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.2
    return { height: text.height, right: text.right, line, width: innerWidth }
  })
  assert.ok(box.height < box.line * 1.5,
    `"${name}" on one line (text ${box.height} px high, a line is ${box.line} px)`)
  assert.ok(box.right <= box.width, `"${name}" ends inside the ${box.width} px viewport`)
}
