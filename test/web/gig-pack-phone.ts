// A phone for the gig pack tests: the web app's module (web/src/lib/offline/gig-pack.ts), a
// Cache API held in memory, fetch answered by app.inject with the member's cookies.
import { pathToFileURL } from 'node:url'
import type { LightMyRequestResponse } from 'fastify'
import { projectPath } from '#src/project-path.js'
import type { Client } from '#test/helpers.js'
import { createGig, insertSongs, putSetlist } from '#test/gig-fixtures.js'
// The web app's module, imported by URL (its folder is the web app's, not the server's).
type Pack = typeof import('../../web/src/lib/offline/gig-pack.js')
export const {
  addDays,
  claimUpcomingSave,
  keepLiveView,
  listPacks,
  packInfo,
  PackTooLarge,
  savePack,
  saveUpcoming,
  setWantsRecordings,
  UPCOMING_EVERY_MS,
  wantsRecordings
} = (await import(
  pathToFileURL(projectPath('web', 'src', 'lib', 'offline', 'gig-pack.ts')).href
)) as Pack

// Like the browser's: relative URLs are the page's origin's, keys() gives absolute Requests.
const absolute = (request: string | Request) =>
  new URL(typeof request === 'string' ? request : request.url, 'http://phone').href

class MemoryCache {
  readonly entries = new Map<string, Response>()
  async match (request: string | Request) {
    return this.entries.get(absolute(request))?.clone()
  }

  async put (request: string | Request, response: Response) {
    this.entries.set(absolute(request), response)
  }

  async keys () {
    return [...this.entries.keys()].map((url) => new Request(url))
  }

  async delete (request: string | Request) {
    return this.entries.delete(absolute(request))
  }
}

class MemoryCaches {
  readonly byName = new Map<string, MemoryCache>()
  async open (name: string) {
    if (!this.byName.has(name)) this.byName.set(name, new MemoryCache())
    return this.byName.get(name)!
  }
}

/** fetch as the phone's browser does it, for one logged-in user; every answer's status noted. */
export function phone (user: Client, statuses: Map<string, number[]>, limit?: number) {
  const fetch = async (url: string | URL | Request, init?: RequestInit) => {
    const path = String(url)
    const answer: LightMyRequestResponse = await user.get(
      path,
      (init?.headers ?? {}) as Record<string, string>
    )
    statuses.set(path, [...(statuses.get(path) ?? []), answer.statusCode])
    const headers = new Headers()
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined) headers.set(name, String(value))
    }
    const nullBody = answer.statusCode === 304 || answer.statusCode === 204
    const body = nullBody ? null : new Uint8Array(answer.rawPayload)
    return new Response(body, { status: answer.statusCode, headers })
  }
  const caches = new MemoryCaches()
  return {
    caches: caches as unknown as CacheStorage,
    fetch: fetch as typeof globalThis.fetch,
    limit,
    store: caches
  }
}

export type App = Parameters<typeof insertSongs>[0]
export async function gigWithSetlist (editor: Client, app: App, date: string) {
  const gig = await createGig(editor, { date, status: 'confirmed' })
  await putSetlist(editor, gig.id, [insertSongs(app, 12)])
  return gig.id as number
}
