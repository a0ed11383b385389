/**
 * Gig night without a network in the browser: the set-up the offline tests share — a
 * relay that takes "the server" away and brings it back on the same address, what a phone logs
 * meanwhile, the service worker's control of a page, and a new release of the built app.
 */
import assert from 'node:assert/strict'
import { createServer, connect, type Server, type Socket } from 'node:net'
import { once } from 'node:events'
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliCompressSync, gzipSync } from 'node:zlib'
import type { Browser, Page } from 'playwright-core'
import { projectPath } from '#src/project-path.js'
import {
  bandToday, createTestApp, createUser, login, type Client, type TestUser
} from '#test/helpers.js'
import { launchBrowser, openApp, type AppPage } from './harness.js'

/** What a phone logs while the server is away on purpose. */
export const OUTAGE =
  /net::ERR_(INTERNET_DISCONNECTED|CONNECTION_REFUSED|CONNECTION_RESET|FAILED|INCOMPLETE_CHUNKED_ENCODING)/

/**
 * A TCP relay in front of the app, so the test can take "the server" away and bring it back on
 * the same address (a phone losing the venue's Wi-Fi) while the app keeps its database.
 */
export class Relay {
  private server: Server | undefined
  private readonly sockets = new Set<Socket>()
  port = 0
  constructor (private readonly target: number) {}

  async start (): Promise<void> {
    this.server = createServer((socket) => {
      const upstream = connect(this.target, '127.0.0.1')
      for (const s of [socket, upstream]) {
        this.sockets.add(s)
        s.on('close', () => this.sockets.delete(s))
        s.on('error', () => {})
      }
      socket.pipe(upstream).pipe(socket)
    })
    this.server.listen(this.port, '127.0.0.1')
    await once(this.server, 'listening')
    this.port = (this.server.address() as { port: number }).port
  }

  async stop (): Promise<void> {
    for (const socket of this.sockets) socket.destroy()
    await new Promise((resolve) => this.server!.close(resolve))
  }
}

/** Waits until a service worker controls the page (first install claims it). */
export const controlled = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<boolean>((resolve) => {
        if (navigator.serviceWorker.controller) resolve(true)
        navigator.serviceWorker.addEventListener('controllerchange', () => resolve(true))
      })
  )

/** Writes a text file of the built app with the pre-compressed copies the server sends. */
function writeServed (file: string, text: string): void {
  writeFileSync(file, text)
  writeFileSync(`${file}.br`, brotliCompressSync(text))
  writeFileSync(`${file}.gz`, gzipSync(text))
}

/**
 * A new version of the built app in `webRoot` (a copy of dist/web), as a build with a changed boot
 * script would be: its boot file (marking the page `<html data-release>`) is written now, before
 * the server starts (the static files are listed at its start, as after a real deploy); the
 * returned `publish` switches index.html to it and releases a service worker that precaches it
 * and answers "release?" with `release <n>`.
 */
export function stageRelease (webRoot: string, release: number): () => void {
  const entry = join(webRoot, '_app', 'immutable', 'entry')
  const oldBoot = readdirSync(entry).find((name) => /^boot\.[\w-]+\.js$/.test(name))!
  const newBoot = `boot.release${release}.js`
  writeServed(
    join(entry, newBoot),
    readFileSync(join(entry, oldBoot), 'utf8') +
      `document.documentElement.dataset.release = '${release}'\n`
  )
  return () => {
    const index = join(webRoot, 'index.html')
    writeServed(index, readFileSync(index, 'utf8').replaceAll(oldBoot, newBoot))
    const worker = join(webRoot, 'service-worker.js')
    writeServed(
      worker,
      readFileSync(worker, 'utf8').replaceAll(oldBoot, newBoot) +
        '\nself.addEventListener("message", (e) => { if (e.data === "release?") ' +
        `e.ports[0].postMessage("release ${release}") })\n`
    )
  }
}

/** The release answered by the service worker that controls the page. */
export const workerRelease = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        // A port of its own: the answer does not wait for the page's client message queue.
        const channel = new MessageChannel()
        channel.port1.onmessage = (event) => resolve(event.data as string)
        navigator.serviceWorker.controller!.postMessage('release?', [channel.port2])
      })
  )

/** What startOfflineApp made: the app behind a relay, a phone, Mia and Lena, tonight's gig. */
export interface OfflineApp {
  base: string
  relay: Relay
  browser: Browser
  /** A phone (Chromium page at phone size) that expects the 401s of a first visit. */
  phone: AppPage
  mia: TestUser
  /** Lena, an editor, through the API. */
  editor: Client
  gigId: number
  /** Publishes release 2 of the app (see stageRelease). */
  publishRelease2: () => void
}

/**
 * The set-up of the offline tests: the app serving the built web app behind a relay, a browser, a
 * member (Mia), an editor (Lena) and a confirmed gig (today unless `gig.date`); with `release`
 * (the service worker tests) it serves a copy of the built app with release 2 staged. All is
 * taken down after the test.
 */
export async function startOfflineApp (
  t: { after (fn: () => unknown): void },
  gig: { name: string; startTime: string; date?: string },
  { release = true }: { release?: boolean } = {}
): Promise<OfflineApp> {
  // A copy of the built app, so that the test can release a new version of it.
  const webRoot = release ? mkdtempSync(join(tmpdir(), 'bandstand-web-')) : undefined
  if (webRoot) cpSync(projectPath('dist', 'web'), webRoot, { recursive: true })
  const publishRelease2 = webRoot
    ? stageRelease(webRoot, 2)
    : () => assert.fail('startOfflineApp without { release: true }')
  const ctx = await createTestApp({}, { LOG_LEVEL: 'silent' }, webRoot ? { webRoot } : {})
  await ctx.app.listen({ host: '127.0.0.1', port: 0 })
  const relay = new Relay((ctx.app.server.address() as { port: number }).port)
  await relay.start()
  const base = `http://127.0.0.1:${relay.port}`
  const browser = await launchBrowser()
  t.after(async () => {
    await browser.close()
    await relay.stop().catch(() => {})
    await ctx.close()
    if (webRoot) rmSync(webRoot, { recursive: true, force: true })
  })

  const mia = await createUser(ctx.app, 'mia', 'member')
  const editor = await login(ctx.app, await createUser(ctx.app, 'lena', 'editor'))
  const created = await editor.post('/gigs', {
    date: bandToday(ctx.app),
    ...gig,
    status: 'confirmed'
  })
  assert.equal(created.statusCode, 201, created.body)
  const phone = await openApp(browser, base)
  phone.allowHttpError('/me', 401)
  phone.allowHttpError('/refresh', 401)
  return {
    base,
    relay,
    browser,
    phone,
    mia,
    editor,
    gigId: created.json().id as number,
    publishRelease2
  }
}
