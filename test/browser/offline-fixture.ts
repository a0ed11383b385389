/**
 * Gig night without a network in the browser (issue 27): the set-up the offline tests share — a
 * relay that takes "the server" away and brings it back on the same address, what a phone logs
 * meanwhile, the service worker's control of a page, and a new release of the built app.
 */
import { createServer, connect, type Server, type Socket } from 'node:net'
import { once } from 'node:events'
import { readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, gzipSync } from 'node:zlib'
import type { Page } from 'playwright-core'

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
