import type { Browser } from 'playwright-core'
import { openApp, PHONE, type AppPage } from './harness.js'

/**
 * A fresh browser in German (the band's default), logged in through the German login page; the
 * 401s of the first, logged-out visit are expected.
 */
export async function loggedInGerman (
  browser: Browser,
  base: string,
  username: string,
  password: string,
  viewport: { width: number; height: number } = PHONE
): Promise<AppPage> {
  const app = await openApp(browser, base, viewport, { locale: 'de-DE' })
  app.allowHttpError('/me', 401)
  app.allowHttpError('/refresh', 401)
  const { page } = app
  await page.goto(`${base}/app/login`)
  await page.getByLabel('Benutzername').fill(username)
  await page.getByLabel('Passwort', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Anmelden' }).click()
  await page.waitForURL((url) => !url.pathname.startsWith('/app/login'))
  return app
}
