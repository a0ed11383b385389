import { and, asc, eq, inArray } from '#src/db/orm.js'
import type { Db } from '#src/db/client.js'
import { gigAsked, gigAvailability, gigLineup, gigSubstitutes, users } from '#src/db/schema.js'
import type { LineupType } from '#schemas/lineup.js'

// Lineups of several gigs in five statements, whatever their number: the dashboard and the gigs
// list warn of every open need at once.

type Player = { userId: number; displayName: string }

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()
const byGig = <T extends { gigId: number }>(rows: T[]) => {
  const map = new Map<number, T[]>()
  for (const row of rows) map.set(row.gigId, [...(map.get(row.gigId) ?? []), row])
  return map
}

export function loadLineups (db: Db, gigIds: number[]): Map<number, LineupType> {
  const result = new Map<number, LineupType>(
    gigIds.map((id) => [id, { needs: [], asked: [], substitutes: [] }]))
  if (gigIds.length === 0) return result
  const needs = byGig(db.select().from(gigLineup).where(inArray(gigLineup.gigId, gigIds))
    .orderBy(asc(gigLineup.gigId), asc(gigLineup.position)).all())
  const asked = byGig(db.select({ gigId: gigAsked.gigId, userId: gigAsked.userId }).from(gigAsked)
    .where(inArray(gigAsked.gigId, gigIds)).all())
  const subs = byGig(db.select().from(gigSubstitutes).where(inArray(gigSubstitutes.gigId, gigIds))
    .orderBy(asc(gigSubstitutes.id)).all())
  const needsAnswers = [...needs.keys()]
  const answers = byGig(needsAnswers.length === 0
    ? []
    : db.select({
      gigId: gigAvailability.gigId,
      userId: gigAvailability.userId,
      status: gigAvailability.status
    }).from(gigAvailability)
      .where(inArray(gigAvailability.gigId, needsAnswers)).all())
  const players = db
    .select({
      userId: users.id,
      displayName: users.displayName,
      instruments: users.instruments,
      occasional: users.occasional
    })
    .from(users)
    .where(and(eq(users.status, 'active'), eq(users.isMusician, true)))
    .orderBy(asc(users.displayName))
    .all()
  const player = (p: (typeof players)[number]): Player =>
    ({ userId: p.userId, displayName: p.displayName })

  for (const gigId of gigIds) {
    const askedIds = new Set((asked.get(gigId) ?? []).map((a) => a.userId))
    const status = new Map((answers.get(gigId) ?? []).map((a) => [a.userId, a.status]))
    // An occasional member counts for a gig they were asked for or answered anyway.
    const counted = players.filter((p) =>
      !p.occasional || askedIds.has(p.userId) || status.has(p.userId))
    const named = (subs.get(gigId) ?? []).map(({ gigId: _, createdAt: __, ...s }) => s)
    result.set(gigId, {
      needs: (needs.get(gigId) ?? []).map((need) => {
        const plays = counted.filter((p) => p.instruments.some((i) => same(i, need.instrument)))
        const by = (answer: string | undefined) =>
          plays.filter((p) => status.get(p.userId) === answer).map(player)
        const yes = by('yes')
        const substitutes = named.filter((s) => same(s.instrument, need.instrument))
        return {
          instrument: need.instrument,
          count: need.count,
          yes,
          maybe: by('maybe'),
          unanswered: by(undefined),
          no: by('no'),
          substitutes,
          missing: Math.max(0, need.count - yes.length - substitutes.length)
        }
      }),
      asked: players.filter((p) => p.occasional && askedIds.has(p.userId))
        .map((p) => ({ ...player(p), instruments: p.instruments })),
      substitutes: named
    })
  }
  return result
}

export const loadLineup = (db: Db, gigId: number): LineupType =>
  loadLineups(db, [gigId]).get(gigId)!
