import { describe, expect, it, vi } from 'vitest'
import {
  isSubscribed,
  keyBytes,
  pushSupport,
  turnOff,
  turnOn,
  type BrowserSubscription,
  type PushBrowser,
  type PushServer
} from './push-subscription'

const KEY = 'BOr2n9fD3CkD8_-q'

function fakeSubscription (endpoint = 'https://push.example/1'): BrowserSubscription & {
  unsubscribe: ReturnType<typeof vi.fn>
} {
  return {
    endpoint,
    toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh: 'P', auth: 'A' } }),
    unsubscribe: vi.fn(async () => true)
  }
}

function fakeBrowser (
  overrides: Partial<PushBrowser> = {},
  existing: BrowserSubscription | null = null
) {
  let current = existing
  const subscribe = vi.fn(async (_options: unknown) => {
    current = fakeSubscription()
    return current
  })
  const browser: PushBrowser = {
    isSecureContext: true,
    standalone: false,
    apple: false,
    hasPushManager: true,
    permission: 'default',
    requestPermission: vi.fn(async () => 'granted' as const),
    registration: async () => ({
      pushManager: { getSubscription: async () => current, subscribe }
    }),
    ...overrides
  }
  return { browser, subscribe }
}

function fakeServer (fail = false) {
  const saved: unknown[] = []
  const removed: string[] = []
  const server: PushServer = {
    listed: async () => saved.map((s) => (s as { endpoint: string }).endpoint),
    publicKey: async () => KEY,
    save: async (s) => {
      if (fail) throw new Error('refused')
      saved.push(s)
    },
    remove: async (endpoint) => { removed.push(endpoint) }
  }
  return { server, saved, removed }
}

describe('push subscription', () => {
  it('tells why a browser cannot have push notifications', async () => {
    const support = (o: Partial<PushBrowser>) => pushSupport(fakeBrowser(o).browser)
    expect(await support({})).toBe('ready')
    expect(await support({ isSecureContext: false })).toBe('insecure')
    expect(await support({ hasPushManager: false, apple: true })).toBe('install')
    expect(await support({ hasPushManager: false, apple: true, standalone: true }))
      .toBe('unsupported')
    expect(await support({ permission: null })).toBe('unsupported')
    expect(await support({ permission: 'denied' })).toBe('blocked')
    expect(await support({ registration: async () => undefined })).toBe('noWorker')
  })

  it('decodes the base64url key', () => {
    expect([...keyBytes('AQID_-8')]).toEqual([1, 2, 3, 255, 239])
  })

  it('turns on: asks, subscribes with the server key and tells the server', async () => {
    const { browser, subscribe } = fakeBrowser()
    const { server, saved } = fakeServer()
    expect(await isSubscribed(browser, server)).toBe(false)
    expect(await turnOn(browser, server)).toBe('on')
    expect(browser.requestPermission).toHaveBeenCalledOnce()
    expect(subscribe.mock.calls[0]![0]).toEqual({
      userVisibleOnly: true, applicationServerKey: keyBytes(KEY)
    })
    expect(saved).toEqual([{ endpoint: 'https://push.example/1', keys: { p256dh: 'P', auth: 'A' } }])
    expect(await isSubscribed(browser, server)).toBe(true)
    expect(await isSubscribed(browser, fakeServer().server), 'another member here before')
      .toBe(false)
  })

  it('a refused permission turns nothing on; a granted one is not asked again', async () => {
    const refused = fakeBrowser({ requestPermission: async () => 'denied' })
    expect(await turnOn(refused.browser, fakeServer().server)).toBe('blocked')
    expect(refused.subscribe).not.toHaveBeenCalled()
    const existing = fakeSubscription('https://push.example/old')
    const granted = fakeBrowser({ permission: 'granted' }, existing)
    const { server, saved } = fakeServer()
    expect(await turnOn(granted.browser, server)).toBe('on')
    expect(granted.browser.requestPermission).not.toHaveBeenCalled()
    expect(granted.subscribe).not.toHaveBeenCalled()
    expect(saved).toHaveLength(1)
  })

  it('a subscription the server refuses is undone', async () => {
    const { browser } = fakeBrowser()
    await expect(turnOn(browser, fakeServer(true).server)).rejects.toThrow('refused')
    const subscription = await (await browser.registration())!.pushManager.getSubscription()
    expect(subscription!.unsubscribe).toHaveBeenCalledOnce()
  })

  it('turns off here and on the server; nothing to do when off', async () => {
    const existing = fakeSubscription()
    const { server, removed } = fakeServer()
    await turnOff(fakeBrowser({}, existing).browser, server)
    expect(existing.unsubscribe).toHaveBeenCalledOnce()
    expect(removed).toEqual(['https://push.example/1'])
    await turnOff(fakeBrowser().browser, server)
    expect(removed).toHaveLength(1)
    await expect(turnOn(fakeBrowser({ registration: async () => undefined, permission: 'granted' })
      .browser, server)).rejects.toThrow('no service worker')
  })
})
