// What the service worker keeps for one user (the gig pack: lib/offline, web/src/service-worker/)
// lives in caches named `bandstand-user-<id>`; the app shell's caches hold no user data. Loaded
// lazily (session.svelte.ts imports it on logout and login), so it costs the first screen nothing.

export const USER_CACHE_PREFIX = 'bandstand-user-'

/** The cache name for one user's offline data. */
export const userCacheName = (userId: number) => `${USER_CACHE_PREFIX}${userId}`

/**
 * Deletes every user's offline data but `keepUserId`'s (none: logout). Without the Cache API (an
 * insecure origin on the band's LAN, docs/deployment.md → "Gig night without a network") there is
 * none.
 */
export async function clearUserCaches (keepUserId?: number): Promise<void> {
  clearOutboxOfOthers(keepUserId)
  if (typeof caches === 'undefined') return
  const keep = keepUserId === undefined ? undefined : userCacheName(keepUserId)
  for (const name of await caches.keys()) {
    if (name.startsWith(USER_CACHE_PREFIX) && name !== keep) await caches.delete(name)
  }
}

/** Whose taps the outbox (lib/live/outbox.ts) holds: the user who was logged in last. */
const OUTBOX_OWNER = 'bandstand-outbox-owner'

/**
 * Queued taps are sent with the session of whoever is logged in: after a logout, or when another
 * user logs in on the same phone, the previous user's queued taps are deleted, never sent as the
 * next user's.
 */
function clearOutboxOfOthers (keepUserId?: number): void {
  if (typeof indexedDB === 'undefined' || typeof localStorage === 'undefined') return
  const keep = keepUserId === undefined ? null : String(keepUserId)
  // At logout (keep null) always: the session's cleanup has removed the owner's key already.
  if (keep === null || localStorage.getItem(OUTBOX_OWNER) !== keep) {
    indexedDB.deleteDatabase('bandstand-outbox')
  }
  if (keep === null) localStorage.removeItem(OUTBOX_OWNER)
  else localStorage.setItem(OUTBOX_OWNER, keep)
}
