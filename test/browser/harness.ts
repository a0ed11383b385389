/**
 * Browser tests of the web app, as a member uses it: Debian's Chromium through playwright-core, the
 * built server (test/server-process.ts), data made through the API. Every page opened through
 * `openApp` is watched: console errors, uncaught exceptions and requests to any other origin fail
 * the test (`assertClean`); `checkA11y` runs axe-core; `screenshot` writes PNGs to
 * dist/screenshots/ to look at.
 */
import assert from 'node:assert/strict'
import { mkdirSync, readFileSync } from 'node:fs'
import type { TestContext } from 'node:test'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { projectPath } from '#src/project-path.js'

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // Each window (a Playwright context) preloads the address bar's suggestion popup, a WebUI page
  // in a renderer of its own (~0.6 CPU-s each); headless, nobody types into an address bar.
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup'
]
/** The machine is shared: Playwright waits this long for anything (auto-waiting, no sleeps). */
export const WAIT = 30_000

export const PHONE = { width: 360, height: 740 }
export const DESKTOP = { width: 1280, height: 860 }

/**
 * Chromium with CHROMIUM_ARGS and `extraArgs`, started through test/browser/chromium.sh, which
 * merges their --disable-features into Playwright's own (Chromium keeps only the last switch).
 */
export function launchBrowser (extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: projectPath('test', 'browser', 'chromium.sh'),
    args: [...CHROMIUM_ARGS, ...extraArgs],
    env: { ...process.env, BANDSTAND_CHROMIUM: CHROMIUM }
  })
}

export interface AppPage {
  page: Page
  context: BrowserContext
  /** Console errors, page errors and foreign requests seen so far (the allowed ones removed). */
  problems: () => string[]
  /** An HTTP error the test provokes on purpose (Chromium logs "Failed to load resource"). */
  allowHttpError: (path: string | RegExp, status: number) => void
  assertClean: () => void
}

export async function openApp (
  browser: Browser,
  base: string,
  viewport: { width: number; height: number } = PHONE,
  options: { locale?: string } = {}
): Promise<AppPage> {
  const context = await browser.newContext({
    viewport,
    locale: options.locale ?? 'en-GB',
    acceptDownloads: true,
    permissions: ['clipboard-read', 'clipboard-write']
  })
  context.setDefaultTimeout(WAIT)
  context.setDefaultNavigationTimeout(WAIT)
  const page = await context.newPage()
  const origin = new URL(base).origin
  const problems: { text: string; url: string }[] = []
  const allowed: { path: string | RegExp; status: number }[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') {
      problems.push({ text: `console: ${message.text()}`, url: message.location().url })
    }
  })
  page.on('pageerror', (error) => problems.push({ text: `page error: ${error.message}`, url: '' }))
  page.on('request', (request) => {
    const url = request.url()
    if (/^(https?|wss?):/.test(url) && new URL(url).origin !== origin) {
      problems.push({ text: `foreign request: ${url}`, url })
    }
  })
  const isAllowed = (problem: { text: string; url: string }) => {
    const status = /status of (\d{3})/.exec(problem.text)?.[1]
    if (!status || !problem.url) return false
    const path = new URL(problem.url).pathname
    return allowed.some(
      (a) =>
        a.status === Number(status) &&
        (typeof a.path === 'string' ? a.path === path : a.path.test(path))
    )
  }
  const remaining = () =>
    problems.filter((problem) => !isAllowed(problem))
      // The resource's address too: "Failed to load resource" alone does not say which.
      .map((problem) => (problem.url && !problem.text.includes(problem.url)
        ? `${problem.text} (${problem.url})`
        : problem.text))
  return {
    page,
    context,
    problems: remaining,
    allowHttpError: (path, status) => allowed.push({ path, status }),
    assertClean: () =>
      assert.deepEqual(
        remaining(),
        [],
        'no console errors, no CSP violations, no request to another origin'
      )
  }
}

let axeSource: string | undefined

/** axe-core on the current page: no serious or critical violation (others do not fail). */
export async function checkA11y (page: Page, label: string): Promise<void> {
  axeSource ??= readFileSync(projectPath('node_modules', 'axe-core', 'axe.min.js'), 'utf8')
  // Injected through the DevTools protocol, which the page's CSP does not govern.
  await page.evaluate(axeSource)
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run: (
            context: Document,
            options: object
          ) => Promise<{
            violations: {
              id: string
              impact: string
              help: string
              nodes: { target: string[] }[]
            }[]
          }>
        }
      }
    ).axe
    const result = await axe.run(document, { resultTypes: ['violations'] })
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')).slice(0, 5)
    }))
  })
  const blocking = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  assert.deepEqual(blocking, [], `${label}: no serious or critical axe-core violations`)
}

const SCREENSHOT_DIR = projectPath('dist', 'screenshots')

/** A full-page PNG in dist/screenshots/<name>.png (open it and look). Returns the path. */
export async function screenshot (page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true })
  const path = `${SCREENSHOT_DIR}/${name}.png`
  // Wait for the app to settle: no spinner left, fonts ready.
  await page
    .locator('.spinner')
    .first()
    .waitFor({ state: 'detached', timeout: WAIT })
    .catch(() => {})
  await page
    .locator('.announcer p')
    .waitFor({ state: 'detached', timeout: WAIT })
    .catch(() => {})
  await page.evaluate(() => document.fonts.ready)
  // The viewport grows to the whole page, so the fixed phone navigation sits at the bottom of the
  // picture.
  const viewport = page.viewportSize()!
  const height = await page.evaluate(() => document.documentElement.scrollHeight)
  await page.setViewportSize({
    width: viewport.width,
    height: Math.max(viewport.height, Math.min(height, 6000))
  })
  await page.screenshot({ path, animations: 'disabled' })
  await page.setViewportSize(viewport)
  return path
}

/** Logs in through the login page (English names) and waits for the dashboard. */
export async function logInAs (
  page: Page,
  base: string,
  username: string,
  password: string
): Promise<void> {
  if (!page.url().includes('/app/login')) await page.goto(`${base}/app/login`)
  await page.getByLabel('Username').fill(username)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.waitForURL((url) => !url.pathname.startsWith('/app/login'))
}

/** Switches the app to English with the language menu (the band default is German). */
export async function chooseEnglish (page: Page): Promise<void> {
  await page.getByRole('combobox', { name: /^(Language|Sprache)$/ }).selectOption('en')
  await page.locator('html[lang="en"]').waitFor({ state: 'attached' })
}

/**
 * Steps of one story in a page: each a subtest building on the one before; after a failure the
 * rest are skipped, and the page's picture (dist/screenshots/<name>-failure.png) and problems are
 * kept.
 */
export function storySteps (
  t: TestContext,
  app: AppPage,
  name: string
): (step: string, fn: () => Promise<void>) => Promise<void> {
  let failed = false
  return (step, fn) =>
    t.test(step, async (st) => {
      if (failed) return st.skip('an earlier step failed')
      try {
        await fn()
      } catch (error) {
        failed = true
        await screenshot(app.page, `${name}-failure`).catch(() => {})
        console.error('page problems:', app.problems())
        throw error
      }
    })
}
