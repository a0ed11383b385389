import { ApiFailure, failureOf } from '../api/client'
import type { ServerSet } from './model'

/** What a setlist save answers: the stored setlist, or (409) the newer version stored meanwhile. */
export type SaveResult =
  | { ok: true; version: number; sets: ServerSet[] }
  | { ok: false; current: { version: number; sets: ServerSet[] } }

/**
 * Awaits a setlist PUT (gig or repertoire: both answer `{ version, sets }` and a 409 with the
 * current list in `current`). Any other failure is thrown as an ApiFailure.
 */
export async function saveResult (
  request: Promise<{
    data?: { version: number; sets: ServerSet[] }
    error?: unknown
    response: Response
  }>
): Promise<SaveResult> {
  let result: Awaited<typeof request>
  try {
    result = await request
  } catch (error) {
    throw new ApiFailure(0, 'NETWORK', String(error))
  }
  if (result.response.status === 409) {
    const current = (result.error as { current?: { version: number; sets: ServerSet[] } })
      ?.current
    if (current) return { ok: false, current }
  }
  if (!result.response.ok || !result.data) throw await failureOf(result.response, result.error)
  return { ok: true, version: result.data.version, sets: result.data.sets }
}
