import type { Browser } from 'playwright-core'
import { ApiSession } from './api-client.js'
import { openApp, type AppPage } from './harness.js'

/**
 * Opens pages logged in by the API's session cookies, the device set to a language. One login per
 * user for the opener's life (the login route allows 10 a minute); each page gets a copy.
 */
export function pageOpener () {
  const sessions = new Map<string, ApiSession>()
  return async function openAs (
    browser: Browser,
    band: { base: string },
    viewport: { width: number; height: number },
    lang: 'en' | 'de',
    username: string,
    password: string
  ): Promise<AppPage> {
    const app = await openApp(browser, band.base, viewport)
    let session = sessions.get(username)
    if (!session) {
      session = await ApiSession.login(band.base, username, password)
      sessions.set(username, session)
    }
    await app.context.addCookies(
      session.cookie.split('; ').map((pair) => {
        const at = pair.indexOf('=')
        return { name: pair.slice(0, at), value: pair.slice(at + 1), url: band.base }
      })
    )
    await app.context.addInitScript(
      (chosen) => localStorage.setItem('bandstand.locale', chosen), lang)
    return app
  }
}
