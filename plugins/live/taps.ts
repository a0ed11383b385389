import { and, desc, eq, gt, inArray, isNull, ne, sql } from '#src/db/orm.js'
import type { Db, Tx } from '#src/db/client.js'
import { gigs, liveTaps, setlistEntries, setlistSets } from '#src/db/schema.js'
import { RUNNING_ORDER } from '#src/repositories/setlists.js'
import type { EntryStatus, LiveTapKind } from '#shared/enums.js'
import { conflict, notFound } from '#src/errors.js'
import { writtenRow } from '#src/db/returning.js'
import type { LiveMakeCurrentType, LiveUndoType } from '#schemas/live.js'

// Every editor tap of live mode is written to live_taps with what it changed, so that Undo can
// put it back for everyone. Undo and Make current follow the revision rule of a stage with
// several editors: the tap names the live version it was made on, and a stale one is 409
// LIVE_VERSION_CONFLICT (another editor moved the show on; their change stands). A request with
// an idempotency key this user already applied to this gig is a no-op answered with the current
// state (a phone's retry, later its offline outbox).

/** An entry's live state before a tap; an insert records only the new entry's id. */
export interface EntryBefore {
  id: number
  status?: EntryStatus
  rating?: number | null
  liveUpdatedAt?: string | null
}

export function recordTap (
  tx: Tx,
  tap: {
    gigId: number
    kind: LiveTapKind
    before: EntryBefore[]
    userId: number
    idempotencyKey?: string
    /** The live version after the tap (the stale check of queued taps compares with it). */
    version: number
    now: Date
  }
): number {
  return tx
    .insert(liveTaps)
    .values({
      gigId: tap.gigId,
      kind: tap.kind,
      before: JSON.stringify(tap.before),
      userId: tap.userId,
      idempotencyKey: tap.idempotencyKey ?? null,
      version: tap.version,
      createdAt: tap.now.toISOString()
    })
    .returning({ id: liveTaps.id })
    .all()[0]!.id
}

/** Bumps the live version (and the setlist's for a changed running order); the new one. */
export const bumpLiveVersion = (
  tx: Pick<Db, 'update'>,
  gigId: number,
  alsoSetlist = false
): number =>
  writtenRow(
    tx
      .update(gigs)
      .set({
        liveVersion: sql`${gigs.liveVersion} + 1`,
        ...(alsoSetlist ? { setlistVersion: sql`${gigs.setlistVersion} + 1` } : {})
      })
      .where(eq(gigs.id, gigId))
      .returning({ liveVersion: gigs.liveVersion })
  ).liveVersion

/**
 * The tap of this gig this user already applied with this idempotency key, if any: keys are the
 * user's own, so another member's key (guessed or reused) neither replays nor blocks a tap.
 */
export function tapWithKey (
  tx: Tx,
  gigId: number,
  userId: number,
  key: string | undefined
): { before: EntryBefore[] } | undefined {
  if (key === undefined) return undefined
  const done = tx
    .select({ before: liveTaps.before })
    .from(liveTaps)
    .where(and(
      eq(liveTaps.gigId, gigId),
      eq(liveTaps.userId, userId),
      eq(liveTaps.idempotencyKey, key)
    ))
    .get()
  return done && { before: JSON.parse(done.before) as EntryBefore[] }
}

/**
 * A queued tap still makes sense only if no tap after its version touched its entry (the
 * entries a tap changed are in its `before`; an undo touched those of the tap it reverted).
 * Otherwise another editor moved the show on: their state wins (409).
 */
export function assertEntryFresh (tx: Tx, gigId: number, entryId: number, version: number): void {
  const touched = tx.get<{ version: number } | undefined>(sql`
    SELECT t.version AS version FROM live_taps t
    WHERE t.gig_id = ${gigId} AND t.version > ${version} AND (
      EXISTS (SELECT 1 FROM json_each(t.before) b
        WHERE json_extract(b.value, '$.id') = ${entryId})
      OR (t.kind = 'undo' AND EXISTS (SELECT 1 FROM live_taps u, json_each(u.before) b
        WHERE u.undone_by = t.id AND json_extract(b.value, '$.id') = ${entryId})))
    LIMIT 1`)
  if (touched) {
    throw conflict(
      'LIVE_VERSION_CONFLICT',
      `entry ${entryId} was changed at live version ${touched.version}, after the tap's ` +
        `version ${version}: the show's state stands`
    )
  }
}

/**
 * The common start of Undo and Make current: the gig exists (404), a replayed key is a no-op
 * (true), and the tap was made on the current version (409).
 */
function admit (
  tx: Tx,
  gigId: number,
  userId: number,
  body: { version: number; idempotencyKey?: string }
): boolean {
  const gig = tx
    .select({ liveVersion: gigs.liveVersion })
    .from(gigs)
    .where(eq(gigs.id, gigId))
    .get()
  if (!gig) throw notFound('gig', gigId)
  if (tapWithKey(tx, gigId, userId, body.idempotencyKey)) return true
  if (body.version !== gig.liveVersion) {
    throw conflict(
      'LIVE_VERSION_CONFLICT',
      `the tap was made on live version ${body.version}; the show is at ${gig.liveVersion}`
    )
  }
  return false
}

/** Puts the entries' recorded states back, in one statement. */
function restoreEntries (tx: Tx, gigId: number, before: EntryBefore[]): void {
  if (before.length === 0) return
  const rows = JSON.stringify(before)
  const field = (name: string) =>
    sql`(SELECT json_extract(b.value, ${`$.${name}`}) FROM json_each(${rows}) b
      WHERE json_extract(b.value, '$.id') = ${setlistEntries.id})`
  tx.update(setlistEntries)
    .set({
      status: sql`${field('status')}`,
      rating: sql`${field('rating')}`,
      liveUpdatedAt: sql`${field('liveUpdatedAt')}`
    })
    .where(
      and(
        eq(setlistEntries.gigId, gigId),
        inArray(
          setlistEntries.id,
          before.map((entry) => entry.id)
        )
      )
    )
    .run()
}

/** Removes an inserted entry (if the setlist still has it) and closes the gap in its set. */
function removeInserted (tx: Tx, gigId: number, entryId: number): void {
  const entry = tx
    .delete(setlistEntries)
    .where(and(eq(setlistEntries.id, entryId), eq(setlistEntries.gigId, gigId)))
    .returning({ setId: setlistEntries.setId, position: setlistEntries.position })
    .all()[0]
  if (!entry) return
  tx.update(setlistEntries)
    .set({ position: sql`${setlistEntries.position} - 1` })
    .where(and(eq(setlistEntries.setId, entry.setId), gt(setlistEntries.position, entry.position)))
    .run()
}

/**
 * Reverts the latest tap of the gig that still stands (played, skip, rating, insert, make
 * current); repeated, it walks further back. Returns false for a replayed key (nothing done).
 */
export function undoLastTap (
  db: Db,
  gigId: number,
  body: LiveUndoType,
  userId: number,
  now: Date
): boolean {
  return db.transaction((tx) => {
    if (admit(tx, gigId, userId, body)) return false
    const last = tx
      .select({ id: liveTaps.id, kind: liveTaps.kind, before: liveTaps.before })
      .from(liveTaps)
      .where(and(eq(liveTaps.gigId, gigId), ne(liveTaps.kind, 'undo'), isNull(liveTaps.undoneBy)))
      .orderBy(desc(liveTaps.id))
      .limit(1)
      .get()
    if (!last) throw conflict('NOTHING_TO_UNDO', `gig ${gigId} has no tap left to undo`)
    const before = JSON.parse(last.before) as EntryBefore[]
    if (last.kind === 'insert') removeInserted(tx, gigId, before[0]!.id)
    else restoreEntries(tx, gigId, before)
    const version = bumpLiveVersion(tx, gigId, last.kind === 'insert')
    const undoId = recordTap(tx, {
      gigId,
      kind: 'undo',
      before: [],
      userId,
      idempotencyKey: body.idempotencyKey,
      version,
      now
    })
    tx.update(liveTaps).set({ undoneBy: undoId }).where(eq(liveTaps.id, last.id)).run()
    return true
  })
}

/**
 * Makes an entry the current song: every planned entry before it is skipped (the band skipped
 * ahead), the entry itself is planned again (the band went back; its rating starts afresh).
 * Entries after it keep their state. Returns false when nothing changed or the key was replayed.
 */
export function makeCurrent (
  db: Db,
  gigId: number,
  body: LiveMakeCurrentType,
  userId: number,
  now: Date
): boolean {
  return db.transaction((tx) => {
    if (admit(tx, gigId, userId, body)) return false
    const entries = tx
      .select({
        id: setlistEntries.id,
        status: setlistEntries.status,
        rating: setlistEntries.rating,
        liveUpdatedAt: setlistEntries.liveUpdatedAt
      })
      .from(setlistEntries)
      .innerJoin(setlistSets, eq(setlistSets.id, setlistEntries.setId))
      .where(eq(setlistEntries.gigId, gigId))
      .orderBy(...RUNNING_ORDER)
      .all()
    const at = entries.findIndex((entry) => entry.id === body.entryId)
    if (at < 0) throw notFound('setlist entry', body.entryId)
    const target = entries[at]!
    const skipped = entries.slice(0, at).filter((entry) => entry.status === 'planned')
    const reopened = target.status !== 'planned' || target.rating !== null
    if (skipped.length === 0 && !reopened) return false
    const stamp = now.toISOString()
    if (skipped.length > 0) {
      tx.update(setlistEntries)
        .set({ status: 'skipped', rating: null, liveUpdatedAt: stamp })
        .where(
          inArray(
            setlistEntries.id,
            skipped.map((entry) => entry.id)
          )
        )
        .run()
    }
    if (reopened) {
      tx.update(setlistEntries)
        .set({ status: 'planned', rating: null, liveUpdatedAt: stamp })
        .where(eq(setlistEntries.id, target.id))
        .run()
    }
    recordTap(tx, {
      gigId,
      kind: 'make_current',
      before: reopened ? [...skipped, target] : skipped,
      userId,
      idempotencyKey: body.idempotencyKey,
      version: bumpLiveVersion(tx, gigId),
      now
    })
    return true
  })
}
