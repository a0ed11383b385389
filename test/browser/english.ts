import type { Browser } from 'playwright-core'
import { openApp, PHONE, type AppPage } from './harness.js'

/**
 * A fresh browser context whose device already chose English (the band's default is German), as
 * the language menu would have stored it; the 401s of the first, logged-out visit are expected.
 */
export async function openAppInEnglish (
  browser: Browser,
  base: string,
  viewport: { width: number; height: number } = PHONE
): Promise<AppPage> {
  const app = await openApp(browser, base, viewport)
  await app.context.addInitScript(() => {
    if (!localStorage.getItem('bandstand.locale')) localStorage.setItem('bandstand.locale', 'en')
  })
  app.allowHttpError('/me', 401)
  app.allowHttpError('/refresh', 401)
  return app
}
