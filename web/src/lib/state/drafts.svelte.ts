/**
 * What a user typed survives a lost session: forms made with `draft()` are written to
 * sessionStorage when the session is lost, and restored after logging in again as the same user
 * (never for another one). A draft is live while its screen is shown. Logout removes every draft.
 */
// eslint-disable-next-line svelte/prefer-svelte-reactivity -- read on session loss, never rendered
const live = new Map<string, Record<string, unknown>>()
const STORAGE_KEY = 'bandstand.drafts'

interface Stored {
  userId: number | null
  drafts: Record<string, Record<string, unknown>>
}

function readStored (): Stored | null {
  try {
    return JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? 'null') as Stored | null
  } catch {
    return null
  }
}

export function saveDrafts (userId: number | null): void {
  const drafts = Object.fromEntries([...live].map(([key, value]) => [key, $state.snapshot(value)]))
  if (Object.keys(drafts).length === 0) return
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify({ userId, drafts }))
  } catch {}
}

/**
 * A reactive form value under `key` (unique per screen, e.g. `me-profile`): restored from a session
 * that was lost while editing when `userId` is the same user, else `initial`.
 */
export function draft<T extends Record<string, unknown>> (
  key: string,
  initial: T,
  userId: number | null
): T {
  const stored = readStored()
  const restored = stored && stored.userId === userId ? stored.drafts[key] : undefined
  const value = $state({ ...initial, ...(restored as Partial<T> | undefined) }) as T
  if (restored && stored) {
    delete stored.drafts[key]
    try {
      sessionStorage.setItem(STORAGE_KEY, JSON.stringify(stored))
    } catch {}
  }
  live.set(key, value)
  // Called while a component initialises: the draft ends with its screen.
  $effect(() => () => {
    live.delete(key)
  })
  return value
}
