// The service worker's push notifications: `push` shows what the server sent ({ title, body, url },
// encrypted for this phone), and a tap opens the event in the app (an open window of the app is
// reused). No app module is imported: this file is part of the worker bundle. The types are the
// little of the worker's API used here, so that tests pass fakes.

export interface PushMessage {
  title: string
  body: string
  /** A path under /app/: the event's page. */
  url: string
}

const APP = '/app/'
const FALLBACK: PushMessage = { title: 'Bandstand', body: '', url: APP }
/** The band's icon (the installed app's own). */
const ICON = '/public/icons/icon-192.png'

interface PushData { json(): unknown }

interface Registration {
  showNotification(title: string, options: {
    body: string
    icon: string
    tag: string
    data: { url: string }
  }): Promise<void>
}

export interface WindowLike {
  url: string
  focus(): Promise<unknown>
  navigate(url: string): Promise<unknown>
}

interface Clients {
  matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<readonly unknown[]>
  openWindow(url: string): Promise<unknown>
}

interface WaitableEvent { waitUntil(promise: Promise<unknown>): void }
interface PushEventLike extends WaitableEvent { data: PushData | null }
interface ClickEventLike extends WaitableEvent {
  notification: { data: unknown; close(): void }
}

export interface PushWorkerScope {
  registration: Registration
  clients: Clients
  location: { origin: string }
  addEventListener(type: 'push', listener: (event: PushEventLike) => void): void
  addEventListener(type: 'notificationclick', listener: (event: ClickEventLike) => void): void
}

const text = (value: unknown, fallback: string) =>
  typeof value === 'string' && value.length > 0 ? value : fallback

/** Only a path of the app is opened: a message cannot send the phone elsewhere. */
export const appPath = (value: unknown): string =>
  typeof value === 'string' && value.startsWith(APP) && !value.startsWith('//') ? value : APP

/** The message, or a plain "Bandstand" one when the data is missing or no JSON. */
export function readPush (data: PushData | null): PushMessage {
  let raw: unknown
  try {
    raw = data?.json()
  } catch {
    raw = null
  }
  if (typeof raw !== 'object' || raw === null) return FALLBACK
  const message = raw as Record<string, unknown>
  return {
    title: text(message.title, FALLBACK.title),
    body: text(message.body, ''),
    url: appPath(message.url)
  }
}

export function showPush (registration: Registration, data: PushData | null): Promise<void> {
  const message = readPush(data)
  // One notification per event: a newer message about it replaces the older.
  return registration.showNotification(message.title, {
    body: message.body,
    icon: ICON,
    tag: message.url,
    data: { url: message.url }
  })
}

const isWindow = (client: unknown): client is WindowLike =>
  typeof client === 'object' && client !== null && 'focus' in client && 'navigate' in client

/** Focuses a window of the app on the event's page, or opens one. */
export async function openFromNotification (
  clients: Clients,
  origin: string,
  data: unknown
): Promise<void> {
  const path = appPath((data as { url?: unknown } | null)?.url)
  const url = new URL(path, origin).href
  const windows = (await clients.matchAll({ type: 'window', includeUncontrolled: true }))
    .filter(isWindow)
  const app = windows.find((w) => w.url === url) ??
    windows.find((w) => new URL(w.url).pathname.startsWith(APP))
  if (app) {
    await app.focus()
    if (app.url !== url) await app.navigate(url)
    return
  }
  await clients.openWindow(url)
}

export function registerPushHandlers (worker: PushWorkerScope): void {
  worker.addEventListener('push', (event) => {
    event.waitUntil(showPush(worker.registration, event.data))
  })
  worker.addEventListener('notificationclick', (event) => {
    event.notification.close()
    event.waitUntil(openFromNotification(worker.clients, worker.location.origin,
      event.notification.data))
  })
}
