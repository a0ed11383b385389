import { api, call } from '$lib/api/client'
import type { AvailabilityStatus, Gig, Rehearsal, Todos } from '$lib/api/types'
import { t } from '$lib/i18n/index.svelte'
import { session } from '$lib/state/session.svelte'
import { lineupGaps, type OpenNeed } from '$lib/gigs/lineup-gaps'

// The dashboard's read (routes/+page.ts).

const NEXT = 3

export interface Upcoming {
  kind: 'gig' | 'rehearsal'
  id: number
  title: string
  date: string
  start: string | null
  end: string | null
  place: string | null
  status: string | null
  mine: AvailabilityStatus | null
  /** The open needs of a gig's lineup (editors only). */
  open: OpenNeed[]
}
export interface Dashboard {
  todos: Todos
  upcoming: Upcoming[]
}

const place = (parts: (string | null | undefined)[]) => parts.filter(Boolean).join(', ') || null

// To-dos, the next gigs and rehearsals, and my answer for each of those (a handful of requests in
// parallel; unanswered ones are known from the to-dos already).
export async function loadDashboard (): Promise<Dashboard> {
  const [todos, gigs, rehearsals, gaps] = await Promise.all([
    call(api.GET('/me/todos')),
    call(api.GET('/gigs', { params: { query: { upcoming: true } } })),
    call(api.GET('/rehearsals', { params: { query: { upcoming: true } } })),
    lineupGaps({ upcoming: true })
  ])
  const openGigs = new Set(todos.gigs.map((gig) => gig.id))
  const openRehearsals = new Set(todos.rehearsals.map((rehearsal) => rehearsal.id))
  const nextGigs = gigs.filter((gig: Gig) => gig.status !== 'declined').slice(0, NEXT)
  const nextRehearsals = rehearsals.slice(0, NEXT)
  const mine = async (
    kind: 'gig' | 'rehearsal',
    id: number
  ): Promise<AvailabilityStatus | null> => {
    if ((kind === 'gig' ? openGigs : openRehearsals).has(id)) return null
    const availability =
      kind === 'gig'
        ? await call(api.GET('/gigs/{id}/availability', { params: { path: { id } } }))
        : await call(api.GET('/rehearsals/{id}/availability', { params: { path: { id } } }))
    return (
      availability.answers.find((answer) => answer.userId === session.user?.id)?.status ?? null
    )
  }
  const upcoming: Upcoming[] = await Promise.all([
    ...nextGigs.map(async (gig: Gig) => ({
      kind: 'gig' as const,
      id: gig.id,
      title: gig.name,
      date: gig.date,
      start: gig.startTime,
      end: gig.endTime,
      place: place([gig.venue.name, gig.venue.city]),
      status: gig.status,
      mine: await mine('gig', gig.id),
      open: gaps.get(gig.id) ?? []
    })),
    ...nextRehearsals.map(async (rehearsal: Rehearsal) => ({
      kind: 'rehearsal' as const,
      id: rehearsal.id,
      title: t('rehearsals.itemTitle'),
      date: rehearsal.date,
      start: rehearsal.startTime,
      end: rehearsal.endTime,
      place: rehearsal.location,
      status: null,
      mine: await mine('rehearsal', rehearsal.id),
      open: []
    }))
  ])
  upcoming.sort((a, b) => `${a.date}${a.start ?? ''}`.localeCompare(`${b.date}${b.start ?? ''}`))
  return { todos, upcoming }
}
