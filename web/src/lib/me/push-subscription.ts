// Push notifications on this phone: whether the browser can have them here, and turning them on
// (permission, PushManager.subscribe with the server's VAPID key, POST /me/push-subscriptions) and
// off. The browser is passed in, so that tests give a fake one.

/** Why this browser cannot have push notifications here, or `ready`. */
export type PushSupport = 'ready' | 'insecure' | 'install' | 'unsupported' | 'blocked' | 'noWorker'

export interface PushBrowser {
  isSecureContext: boolean
  /** The app runs installed (home screen), not in a browser tab. */
  standalone: boolean
  /** iPhone or iPad: push only in the installed app there. */
  apple: boolean
  hasPushManager: boolean
  /** `Notification.permission`, or null without the Notification API. */
  permission: NotificationPermission | null
  requestPermission(): Promise<NotificationPermission>
  /** The app's service worker registration, if one runs (not in development). */
  registration(): Promise<PushRegistration | undefined>
}

export interface PushRegistration {
  pushManager: {
    getSubscription(): Promise<BrowserSubscription | null>
    subscribe(options: {
      userVisibleOnly: boolean
      applicationServerKey: Uint8Array<ArrayBuffer>
    }): Promise<BrowserSubscription>
  }
}

export interface BrowserSubscription {
  endpoint: string
  toJSON(): { endpoint?: string; expirationTime?: number | null; keys?: Record<string, string> }
  unsubscribe(): Promise<boolean>
}

/** What the server is told (the routes' bodies). */
export interface PushServer {
  /** The endpoints of the member's subscriptions. */
  listed(): Promise<string[]>
  publicKey(): Promise<string>
  save(subscription: { endpoint: string; keys: { p256dh: string; auth: string } }): Promise<void>
  remove(endpoint: string): Promise<void>
}

export async function pushSupport (browser: PushBrowser): Promise<PushSupport> {
  if (!browser.isSecureContext) return 'insecure'
  if (!browser.hasPushManager || browser.permission === null) {
    return browser.apple && !browser.standalone ? 'install' : 'unsupported'
  }
  if (browser.permission === 'denied') return 'blocked'
  return (await browser.registration()) ? 'ready' : 'noWorker'
}

/** A base64url key as the bytes PushManager.subscribe takes. */
export function keyBytes (base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/')
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4))
  return Uint8Array.from(binary, (c) => c.charCodeAt(0))
}

/**
 * Whether this phone gets the member's push notifications: it has a subscription, and the server
 * has it for this member (not for whoever was logged in here before, nor dropped as gone).
 */
export async function isSubscribed (browser: PushBrowser, server: PushServer): Promise<boolean> {
  const registration = await browser.registration()
  const subscription = await registration?.pushManager.getSubscription()
  return !!subscription && (await server.listed()).includes(subscription.endpoint)
}

/**
 * Turns push on: answers 'blocked' when the member refuses the permission. A subscription the
 * server refuses is undone, so that the switch and the server agree.
 */
export async function turnOn (browser: PushBrowser, server: PushServer): Promise<'on' | 'blocked'> {
  const permission = browser.permission === 'granted'
    ? 'granted'
    : await browser.requestPermission()
  if (permission !== 'granted') return 'blocked'
  const registration = await browser.registration()
  if (!registration) throw new Error('no service worker')
  const subscription = await registration.pushManager.getSubscription() ??
    await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: keyBytes(await server.publicKey())
    })
  const { keys } = subscription.toJSON()
  try {
    await server.save({
      endpoint: subscription.endpoint,
      keys: { p256dh: keys?.p256dh ?? '', auth: keys?.auth ?? '' }
    })
  } catch (error) {
    await subscription.unsubscribe()
    throw error
  }
  return 'on'
}

/** Turns push off on this phone and tells the server (which may have forgotten it already). */
export async function turnOff (
  browser: Pick<PushBrowser, 'registration'>,
  server: Pick<PushServer, 'remove'>
): Promise<void> {
  const registration = await browser.registration()
  const subscription = await registration?.pushManager.getSubscription()
  if (!subscription) return
  await subscription.unsubscribe()
  await server.remove(subscription.endpoint)
}

const WORKER_WAIT_MS = 3000

/** The real browser. */
export function thisBrowser (): PushBrowser {
  const hasNotification = typeof Notification !== 'undefined'
  return {
    isSecureContext: window.isSecureContext,
    standalone: window.matchMedia('(display-mode: standalone)').matches ||
      (navigator as { standalone?: boolean }).standalone === true,
    apple: /iPhone|iPad|iPod/.test(navigator.userAgent) ||
      (navigator.userAgent.includes('Macintosh') && navigator.maxTouchPoints > 1),
    hasPushManager: 'serviceWorker' in navigator && 'PushManager' in window,
    permission: hasNotification ? Notification.permission : null,
    requestPermission: () => Notification.requestPermission(),
    registration: async () => {
      // Registered after the login (lib/offline): on a first visit it may still be on its way.
      const found = await navigator.serviceWorker.getRegistration('/app/') ??
        await Promise.race([
          navigator.serviceWorker.ready,
          new Promise<undefined>((resolve) => setTimeout(resolve, WORKER_WAIT_MS))
        ])
      return found as PushRegistration | undefined
    }
  }
}
