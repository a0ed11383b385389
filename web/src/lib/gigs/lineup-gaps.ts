import { api, call } from '$lib/api/client'
import type { Ok } from '$lib/api/types'
import type { paths } from '$lib/api/schema'
import { can } from '$lib/state/session.svelte'

// The open needs of the lineups of a whole list of gigs, in one request: editors see a warning
// ("No Drums confirmed") on the dashboard and in the gigs list.

export type OpenNeed = Ok<'/gigs/lineup-gaps', 'get'>['gigs'][number]['open'][number]
type GapsQuery = NonNullable<paths['/gigs/lineup-gaps']['get']['parameters']['query']>

/**
 * Each listed gig's open needs by id; nothing for members (the warning is the editors'), nor when
 * the request fails: the list itself never waits on its warnings.
 */
export async function lineupGaps (
  query: GapsQuery
): Promise<Map<number, OpenNeed[]>> {
  if (!can('editor')) return new Map()
  try {
    const { gigs } = await call(api.GET('/gigs/lineup-gaps', { params: { query } }))
    return new Map(gigs.map((gig) => [gig.gigId, gig.open]))
  } catch {
    return new Map()
  }
}
