import { api, call } from '$lib/api/client'
import type { Ok } from '$lib/api/types'

type Members = Ok<'/users', 'get'>

/** Display names by user id, read once per screen (GET /users answers every member). */
export function memberNames () {
  const state = $state({ names: {} as Record<number, string>, members: [] as Members })
  void call(api.GET('/users')).then((users) => {
    state.members = users
    state.names = Object.fromEntries(users.map((u) => [u.id, u.displayName]))
  }).catch(() => {})
  return state
}

export const partyName = (
  names: Record<number, string>,
  party: { userId?: number, name?: string }
) => (party.userId !== undefined ? names[party.userId] ?? `#${party.userId}` : party.name ?? '')
