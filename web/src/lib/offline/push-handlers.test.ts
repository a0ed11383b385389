import { describe, expect, it, vi } from 'vitest'
import {
  appPath,
  readPush,
  registerPushHandlers,
  type PushWorkerScope,
  type WindowLike
} from './push-handlers'

const ORIGIN = 'https://band.example'

/** A fake worker: its listeners, what it showed and which windows it focused or opened. */
function fakeWorker (windows: WindowLike[] = []) {
  const listeners = new Map<string, (event: never) => void>()
  const shown: Array<{ title: string; options: unknown }> = []
  const opened: string[] = []
  const worker = {
    registration: {
      showNotification: async (title: string, options: unknown) => {
        shown.push({ title, options })
      }
    },
    clients: {
      matchAll: async () => [...windows, { url: `${ORIGIN}/app/`, id: 'no window' }],
      openWindow: async (url: string) => {
        opened.push(url)
        return null
      }
    },
    location: { origin: ORIGIN },
    addEventListener: (type: string, listener: (event: never) => void) => {
      listeners.set(type, listener)
    }
  } as unknown as PushWorkerScope
  registerPushHandlers(worker)
  /** Dispatches an event and waits for what it handed to waitUntil. */
  const fire = async (type: string, event: object) => {
    let work: Promise<unknown> = Promise.resolve()
    listeners.get(type)!({ ...event, waitUntil: (p: Promise<unknown>) => { work = p } } as never)
    await work
  }
  return { fire, shown, opened }
}

const message = (value: unknown) => ({ json: () => value })

function fakeWindow (url: string): WindowLike & { focused: number; went: string[] } {
  const win = {
    url,
    focused: 0,
    went: [] as string[],
    focus: async () => { win.focused++ },
    navigate: async (to: string) => { win.went.push(to) }
  }
  return win
}

describe('push handlers', () => {
  it('shows the title and body, one notification per event', async () => {
    const { fire, shown } = fakeWorker()
    await fire('push', {
      data: message({ title: 'New: Fair, Sat 1 May', body: 'A new date', url: '/app/gigs/4' })
    })
    expect(shown).toEqual([{
      title: 'New: Fair, Sat 1 May',
      options: {
        body: 'A new date',
        icon: '/public/icons/icon-192.png',
        tag: '/app/gigs/4',
        data: { url: '/app/gigs/4' }
      }
    }])
  })

  it('shows a plain notification for a message it cannot read', async () => {
    expect(readPush(null)).toEqual({ title: 'Bandstand', body: '', url: '/app/' })
    expect(readPush({ json: () => { throw new SyntaxError('no JSON') } }).title).toBe('Bandstand')
    expect(readPush(message('text'))).toEqual({ title: 'Bandstand', body: '', url: '/app/' })
    expect(readPush(message({ title: 3, url: 'https://evil.example/app/' })))
      .toEqual({ title: 'Bandstand', body: '', url: '/app/' })
  })

  it('opens only paths of the app', () => {
    expect(appPath('/app/rehearsals/2')).toBe('/app/rehearsals/2')
    expect(appPath('//evil.example/app/')).toBe('/app/')
    expect(appPath('/admin')).toBe('/app/')
    expect(appPath(undefined)).toBe('/app/')
  })

  it('a tap opens the event in a new window when the app is not open', async () => {
    const { fire, opened } = fakeWorker()
    const close = vi.fn()
    await fire('notificationclick', { notification: { data: { url: '/app/gigs/4' }, close } })
    expect(close).toHaveBeenCalledOnce()
    expect(opened).toEqual([`${ORIGIN}/app/gigs/4`])
  })

  it("a tap focuses the app's window and takes it to the event", async () => {
    const other = fakeWindow(`${ORIGIN}/elsewhere`)
    const app = fakeWindow(`${ORIGIN}/app/songs`)
    const { fire, opened } = fakeWorker([other, app])
    await fire('notificationclick', { notification: { data: { url: '/app/gigs/4' }, close () {} } })
    expect(opened).toEqual([])
    expect(app.focused).toBe(1)
    expect(app.went).toEqual([`${ORIGIN}/app/gigs/4`])
    expect(other.focused).toBe(0)
  })

  it('a window already on the event is only focused', async () => {
    const there = fakeWindow(`${ORIGIN}/app/gigs/4`)
    const app = fakeWindow(`${ORIGIN}/app/`)
    const { fire } = fakeWorker([app, there])
    await fire('notificationclick', { notification: { data: { url: '/app/gigs/4' }, close () {} } })
    expect(there.focused).toBe(1)
    expect(there.went).toEqual([])
    expect(app.focused).toBe(0)
  })
})
