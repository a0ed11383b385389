import { and, eq, inArray, isNotNull, ne } from '#src/db/orm.js'
import type { Db } from '#src/db/client.js'
import { gigAsked, gigLineup, gigs, users } from '#src/db/schema.js'
import { todayIn } from '#shared/local-time.js'
import { buildMails, type Recipient } from './mails.js'
import { enqueueMails } from './outbox.js'
import { loadDeadlines } from './deadlines.js'
import { gigEvent, type EventChange } from './watch.js'
import type { ReminderContext } from './reminders.js'

// Occasional members (subs) are mailed only about the gigs an editor asked them for: news of
// those gigs reach them like everyone else, news of other gigs, rehearsals and surveys do not.

/** Who hears of each change: the active members with an address, subs only where asked. */
export function recipientsFor (
  db: Db,
  changes: EventChange[]
): (change: EventChange) => Recipient[] {
  const everyone = db
    .select({
      id: users.id,
      displayName: users.displayName,
      email: users.email,
      isMusician: users.isMusician,
      occasional: users.occasional
    })
    .from(users)
    .where(and(eq(users.status, 'active'), isNotNull(users.email), ne(users.email, '')))
    .all() as Array<Recipient & { occasional: boolean }>
  const gigIds = changes.flatMap((c) => (c.kind === 'gig' ? [c.event.id] : []))
  const asked = new Set(gigIds.length === 0
    ? []
    : db.select().from(gigAsked).where(inArray(gigAsked.gigId, gigIds)).all()
      .map((a) => `${a.gigId}:${a.userId}`))
  const strip = ({ occasional: _, ...member }: Recipient & { occasional: boolean }) => member
  return (change) => everyone
    .filter((m) => !m.occasional ||
      (change.kind === 'gig' && asked.has(`${change.event.id}:${m.id}`)))
    .map(strip)
}

/**
 * Mails a sub just asked for a gig, as if the gig were new to them; nothing for a gig past, off
 * or without answers. Answers how many mails were queued (0 or 1).
 */
export function mailAsked (
  db: Db,
  gigId: number,
  userId: number,
  context: ReminderContext
): number {
  const row = db.select().from(gigs).where(eq(gigs.id, gigId)).get()
  if (!row || row.date < todayIn(context.settings.timezone, context.now)) return 0
  if (row.status !== 'inquiry' && row.status !== 'confirmed') return 0
  const member = db
    .select({
      id: users.id,
      displayName: users.displayName,
      email: users.email,
      isMusician: users.isMusician
    })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.status, 'active'), isNotNull(users.email),
      ne(users.email, '')))
    .all() as Recipient[]
  const deadlines = loadDeadlines(db, 'gig', [row], context.settings)
  const change: EventChange = {
    kind: 'gig', reason: 'created', seen: `asked-${row.sequence}`, event: gigEvent(row), row
  }
  const mails = buildMails(db, [change], member, {
    ...context,
    answerBy: (_kind, id) => deadlines.get(id)?.answerBy
  })
  return enqueueMails(db, mails, context.now)
}

/**
 * The active musicians who play the instrument of one need of the gig's lineup (case does not
 * matter), or null when no need names it (a rehearsal has no lineup).
 */
export function playersOfNeed (
  db: Db,
  kind: 'gig' | 'rehearsal',
  gigId: number,
  instrument: string
): Set<number> | null {
  const wanted = instrument.trim().toLowerCase()
  const needed = kind === 'gig' && db.select({ instrument: gigLineup.instrument }).from(gigLineup)
    .where(eq(gigLineup.gigId, gigId)).all().some((n) => n.instrument.toLowerCase() === wanted)
  if (!needed) return null
  const players = db.select({ id: users.id, instruments: users.instruments }).from(users)
    .where(and(eq(users.status, 'active'), eq(users.isMusician, true))).all()
  return new Set(players.filter((p) => p.instruments.some((i) => i.toLowerCase() === wanted))
    .map((p) => p.id))
}
