import { alias, and, asc, count, eq, gt, gte, lte, sql } from '#src/db/orm.js'
import type { Db, Tx } from '#src/db/client.js'
import { gigChecklistItems as items, users } from '#src/db/schema.js'
import { badRequest, conflict } from '#src/errors.js'
import {
  MAX_CHECKLIST_ITEMS,
  type ChecklistItemCreateType,
  type ChecklistItemPatchType,
  type ChecklistItemType
} from '#schemas/checklist.js'
import { writtenRow, returnedRow } from '#src/db/returning.js'

const assignee = alias(users, 'assignee')

const itemColumns = {
  id: items.id,
  gigId: items.gigId,
  position: items.position,
  title: items.title,
  category: items.category,
  assigneeId: items.assigneeId,
  assigneeName: assignee.displayName,
  dueAt: items.dueAt,
  done: items.done,
  doneAt: items.doneAt,
  doneBy: items.doneBy,
  notes: items.notes,
  createdAt: items.createdAt,
  updatedAt: items.updatedAt
}

const selectItems = (db: Db | Tx) =>
  db
    .select(itemColumns)
    .from(items)
    .leftJoin(assignee, eq(assignee.id, items.assigneeId))

/** The gig's checklist in list order: one statement. */
export function listChecklist (db: Db, gigId: number): ChecklistItemType[] {
  return selectItems(db)
    .where(eq(items.gigId, gigId))
    .orderBy(asc(items.position), asc(items.id))
    .all()
}

export function findChecklistItem (
  db: Db | Tx,
  gigId: number,
  itemId: number
): ChecklistItemType | undefined {
  return selectItems(db)
    .where(and(eq(items.gigId, gigId), eq(items.id, itemId)))
    .get()
}

function checkAssignee (tx: Tx, assigneeId: number | null | undefined): void {
  if (assigneeId === undefined || assigneeId === null) return
  const user = tx
    .select({ status: users.status })
    .from(users)
    .where(eq(users.id, assigneeId))
    .get()
  if (user?.status !== 'active') {
    throw badRequest('UNKNOWN_USER', `assigneeId: ${assigneeId} is no active user`)
  }
}

const itemCount = (tx: Tx, gigId: number) =>
  tx.select({ n: count() }).from(items).where(eq(items.gigId, gigId)).get()!.n

/** Moves the positions in [from, to] of a gig by `delta` (one statement). */
const shift = (tx: Tx, gigId: number, from: number, to: number, delta: 1 | -1) =>
  tx
    .update(items)
    .set({ position: sql`${items.position} + ${delta}` })
    .where(and(eq(items.gigId, gigId), gte(items.position, from), lte(items.position, to)))
    .run()

const doneFields = (done: boolean | undefined, by: number, stamp: string) =>
  done === undefined
    ? {}
    : done
      ? { done, doneAt: stamp, doneBy: by }
      : { done, doneAt: null, doneBy: null }

/** Inserts at `position` (default: last); the items after it move down, positions stay dense. */
export function createChecklistItem (
  db: Db,
  gigId: number,
  body: ChecklistItemCreateType,
  by: number,
  now: Date
): ChecklistItemType {
  const stamp = now.toISOString()
  return db.transaction((tx) => {
    const n = itemCount(tx, gigId)
    if (n >= MAX_CHECKLIST_ITEMS) {
      throw conflict(
        'LIMIT_REACHED',
        `a gig's checklist holds at most ${MAX_CHECKLIST_ITEMS} items`
      )
    }
    checkAssignee(tx, body.assigneeId)
    const position = Math.min(body.position ?? n, n)
    shift(tx, gigId, position, n, 1)
    const { id } = writtenRow(
      tx
        .insert(items)
        .values({
          gigId,
          position,
          title: body.title.trim(),
          category: body.category?.trim() || null,
          assigneeId: body.assigneeId ?? null,
          dueAt: body.dueAt ?? null,
          notes: body.notes ?? null,
          ...doneFields(body.done, by, stamp),
          createdAt: stamp,
          updatedAt: stamp
        })
        .returning({ id: items.id })
    )
    return findChecklistItem(tx, gigId, id)!
  })
}

/** Applies a patch; a new `position` moves the item and keeps the others dense. */
export function patchChecklistItem (
  db: Db,
  gigId: number,
  itemId: number,
  body: ChecklistItemPatchType,
  by: number,
  now: Date
): ChecklistItemType | undefined {
  const stamp = now.toISOString()
  return db.transaction((tx) => {
    const current = findChecklistItem(tx, gigId, itemId)
    if (!current) return undefined
    checkAssignee(tx, body.assigneeId)
    const { position: wanted, done, title, category, ...rest } = body
    let position = current.position
    if (wanted !== undefined) {
      position = Math.min(wanted, itemCount(tx, gigId) - 1)
      if (position > current.position) shift(tx, gigId, current.position + 1, position, -1)
      if (position < current.position) shift(tx, gigId, position, current.position - 1, 1)
    }
    tx.update(items)
      .set({
        ...rest,
        ...(title === undefined ? {} : { title: title.trim() }),
        ...(category === undefined ? {} : { category: category?.trim() || null }),
        ...(done === current.done ? {} : doneFields(done, by, stamp)),
        position,
        updatedAt: stamp
      })
      .where(eq(items.id, itemId))
      .run()
    return findChecklistItem(tx, gigId, itemId)
  })
}

/** Deletes the item; the ones after it move up. */
export function deleteChecklistItem (db: Db, gigId: number, itemId: number): boolean {
  return db.transaction((tx) => {
    const deleted = returnedRow(
      tx
        .delete(items)
        .where(and(eq(items.gigId, gigId), eq(items.id, itemId)))
        .returning({ position: items.position })
    )
    if (!deleted) return false
    tx.update(items)
      .set({ position: sql`${items.position} - 1` })
      .where(and(eq(items.gigId, gigId), gt(items.position, deleted.position)))
      .run()
    return true
  })
}
