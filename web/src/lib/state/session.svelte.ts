import { goto } from '$app/navigation'
import { resolve } from '$app/paths'
import { api, call, onPasswordChangeRequired, onSessionLost } from '../api/client'
import { takeFirstBody } from '../api/first-answers'
import type { Role, User } from '../api/types'
import { DEVICE_SETTINGS } from '../i18n/index.svelte'
import { roleAtLeast } from '$shared/enums'
import { saveDrafts } from './drafts.svelte'

/** Who is logged in (GET /me). The tokens are httpOnly cookies that JavaScript never sees. */
export const session = $state({
  user: null as User | null,
  /** A message key for the login page ("your session has ended"). */
  notice: '',
  /** Between losing the session (or logging out) and the next login: nothing is to be loaded. */
  ended: false
})

/** Role-aware screens: `can('editor')` is true for editors and admins. */
export function can (role: Role): boolean {
  return session.user !== null && roleAtLeast(session.user.role, role)
}

/**
 * Offline data of anyone but `userId` (none: logout) is deleted: one user's data is never shown to
 * another on a shared phone. Loaded when needed, so the first screen carries none of it.
 */
async function clearOfflineData (userId?: number): Promise<void> {
  try {
    const { clearUserCaches } = await import('../offline/user-caches')
    await clearUserCaches(userId)
  } catch {
    // No Cache API, or the chunk could not load (offline): nothing was stored by it either.
  }
}

export async function loadCurrentUser (): Promise<User> {
  session.user = await call(api.GET('/me'))
  session.ended = false
  void clearOfflineData(session.user.id)
  return session.user
}

/** `/me` from the offline shell (lib/api/first-answers.ts), at once; false when it has none. */
export function userFromShell (): boolean {
  const user = takeFirstBody<User>('/me', () => true)
  if (!user) return false
  session.user = user
  session.ended = false
  void clearOfflineData(user.id)
  return true
}

/** After POST /login. */
export function loggedIn (user: User): void {
  session.user = user
  session.ended = false
  void clearOfflineData(user.id)
}

// eslint-disable-next-line svelte/prefer-svelte-reactivity -- callbacks to run, never rendered
const resetHandlers = new Set<() => void>()
/** Screens and caches register what they hold; logout and a lost session clear it all. */
export function onSessionReset (handler: () => void): () => void {
  resetHandlers.add(handler)
  return () => resetHandlers.delete(handler)
}

// eslint-disable-next-line svelte/prefer-svelte-reactivity -- callbacks to run, never rendered
const logoutStartHandlers = new Set<() => void>()
/**
 * Work that must stop before the server ends the session (the gig pack's downloads): a request
 * still on its way after POST /logout would be refused with a 401.
 */
export function onLogoutStart (handler: () => void): () => void {
  logoutStartHandlers.add(handler)
  return () => logoutStartHandlers.delete(handler)
}

function clearClientState (keepDrafts: boolean): void {
  session.ended = true
  session.user = null
  for (const handler of resetHandlers) handler()
  try {
    for (const key of Object.keys(localStorage)) {
      if (!DEVICE_SETTINGS.includes(key)) localStorage.removeItem(key)
    }
    if (!keepDrafts) sessionStorage.clear()
  } catch {}
}

/**
 * Where to come back to after logging in: only paths inside the app, checked after the URL is
 * resolved as the browser will (`/app/..//x` is `//x`, another origin's path, not the app's).
 */
export function safeNext (next: string | null): string {
  if (!next) return resolve('/')
  const base = 'http://app.invalid'
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- read once, never rendered
  const url = URL.canParse(next, base) ? new URL(next, base) : null
  if (!url) return resolve('/')
  const path = url.pathname + url.search + url.hash
  if (
    url.origin === base &&
    !next.startsWith('//') &&
    path.startsWith(resolve('/')) &&
    !path.startsWith('//') &&
    !path.startsWith(resolve('/login'))
  ) {
    return path
  }
  return resolve('/')
}

/** POST /logout (idempotent), then every piece of client state is cleared. */
export async function logout (): Promise<void> {
  for (const handler of logoutStartHandlers) handler()
  // This phone's push notifications end with the login here (while the session still lasts).
  await import('$lib/me/push-server').then((push) => push.endPushHere()).catch(() => {})
  try {
    await call(api.POST('/logout'))
  } catch {
    // The cookies may be gone already; the client state is cleared regardless.
  }
  clearClientState(false)
  await clearOfflineData()
  await goto(resolve('/login'), { replaceState: true, invalidateAll: true })
}

/**
 * A reset link of `username` is about to be redeemed in this tab. When that is the user logged in
 * here, the server ends every session of theirs: background work (the gig pack) stops first, and
 * `passwordResetDone` then clears the client state as a logout would.
 */
export function passwordResetStarts (username: string): void {
  if (session.user?.username === username) for (const handler of logoutStartHandlers) handler()
}

/** The reset link of `username` was redeemed; see passwordResetStarts. */
export function passwordResetDone (username: string): void {
  if (session.user?.username !== username) return
  clearClientState(false)
  void clearOfflineData()
}

let redirecting = false
// A 401 that the silent refresh could not cure: to the login page, and back here afterwards. What
// the user was typing is kept for that round trip (drafts.svelte.ts). The server ended the session
// (revoked on another device, the user deactivated, a password reset): the offline data goes as at
// a logout, so a phone that is no longer the member's keeps none of the band's gigs.
onSessionLost(() => {
  if (redirecting || location.pathname.startsWith(resolve('/login'))) return
  redirecting = true
  // A first visit without a session is no "session ended".
  const hadSession = session.user !== null
  saveDrafts(session.user?.id ?? null)
  clearClientState(true)
  if (hadSession) void clearOfflineData()
  session.notice = hadSession ? 'session.expired' : ''
  const next = location.pathname + location.search
  goto(resolve(`/login?next=${encodeURIComponent(next)}`), { replaceState: true }).finally(() => {
    redirecting = false
  })
})

// The layout shows the change-password screen instead of any other while this is set.
onPasswordChangeRequired(() => {
  if (session.user) session.user = { ...session.user, passwordChangeRequired: true }
})
