import { and, asc, eq, inArray, like } from '#src/db/orm.js'
import type { Db, Tx } from '#src/db/client.js'
import { files, gigAvailability, gigMoney, gigs, moneyPayments, users } from '#src/db/schema.js'
import { writtenRow } from '#src/db/returning.js'
import { badRequest } from '#src/errors.js'
import type { GigMoneyPutType, PartyBody, PaymentPostType } from '#schemas/money.js'
import type { MoneyRules, Party } from '#shared/money.js'

export type GigMoneyRow = typeof gigMoney.$inferSelect

export class MoneyVersionConflict extends Error {}

/** A party of the API (one of two optional fields) as the shared type. */
export const toParty = (body: PartyBody): Party =>
  body.userId !== undefined ? { userId: body.userId } : { name: body.name!.trim() }

export function findMoney (db: Db, gigId: number): GigMoneyRow | undefined {
  return db.select().from(gigMoney).where(eq(gigMoney.gigId, gigId)).get()
}

/** The members who answered yes for each gig: the default players. One statement. */
export function yesPlayers (db: Db, gigIds: number[]): Map<number, number[]> {
  const players = new Map<number, number[]>()
  if (gigIds.length === 0) return players
  const rows = db
    .select({ gigId: gigAvailability.gigId, userId: gigAvailability.userId })
    .from(gigAvailability)
    .innerJoin(users, eq(users.id, gigAvailability.userId))
    .where(and(
      inArray(gigAvailability.gigId, gigIds),
      eq(gigAvailability.status, 'yes'),
      eq(users.status, 'active')
    ))
    .orderBy(asc(gigAvailability.userId))
    .all()
  for (const row of rows) {
    const list = players.get(row.gigId) ?? []
    list.push(row.userId)
    players.set(row.gigId, list)
  }
  return players
}

/** Every member id a body names exists (and is active where it is new to the gig). */
function checkMembers (db: Db | Tx, ids: number[]) {
  const unique = [...new Set(ids)]
  if (unique.length === 0) return
  const known = new Set(db
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, unique), eq(users.status, 'active')))
    .all()
    .map((row) => row.id))
  const unknown = unique.filter((id) => !known.has(id))
  if (unknown.length > 0) {
    throw badRequest('UNKNOWN_USER', `no active member with id ${unknown.join(', ')}`)
  }
}

/** Every receipt named is a file of this gig (a receipt lives with its gig's files). */
function checkReceipts (db: Db | Tx, gigId: number, ids: number[]) {
  const unique = [...new Set(ids)]
  if (unique.length === 0) return
  const known = new Set(db.select({ id: files.id }).from(files)
    .where(and(inArray(files.id, unique), eq(files.gigId, gigId))).all().map((row) => row.id))
  const unknown = unique.filter((id) => !known.has(id))
  if (unknown.length > 0) {
    throw badRequest('UNKNOWN_FILE', `no file ${unknown.join(', ')} among this gig's files`)
  }
}

const memberIds = (body: GigMoneyPutType) => [
  ...[body.fee.receivedBy, ...body.expenses.map((e) => e.paidBy),
    ...body.rules.fixed.map((f) => f.to), ...body.rules.percentages.map((p) => p.to)]
    .flatMap((party) => party?.userId !== undefined ? [party.userId] : []),
  ...(body.rules.players ?? [])
]

/** Percent with at most two decimals as hundredths of a percent. */
function basisPoints (percent: number): number {
  const points = Math.round(percent * 100)
  if (Math.abs(points - percent * 100) > 1e-6) {
    throw badRequest('MONEY_RULES_INVALID', `${percent} %: at most two decimals`)
  }
  return points
}

export function rulesOf (body: GigMoneyPutType['rules']): MoneyRules {
  return {
    players: body.players,
    fixed: body.fixed.map((f) => ({ to: toParty(f.to), amountCents: f.amountCents })),
    percentages: body.percentages.map((p) => ({
      to: toParty(p.to),
      basisPoints: basisPoints(p.percent)
    }))
  }
}

/**
 * Stores a gig's money as a whole when `version` is the stored one (0: none yet). Checks that
 * need the database (members) run inside the transaction, so a refused body writes nothing.
 */
export function saveMoney (
  db: Db,
  gigId: number,
  body: GigMoneyPutType,
  rules: MoneyRules,
  now: string
): GigMoneyRow {
  return db.transaction((tx) => {
    const stored = tx.select({ version: gigMoney.version }).from(gigMoney)
      .where(eq(gigMoney.gigId, gigId)).get()
    if ((stored?.version ?? 0) !== body.version) throw new MoneyVersionConflict()
    checkMembers(tx, memberIds(body))
    checkReceipts(tx, gigId, body.expenses.flatMap((e) => e.receiptFileId ? [e.receiptFileId] : []))
    const values = {
      feeCents: body.fee.amountCents,
      currency: body.fee.currency,
      paid: body.fee.paid,
      paidOn: body.fee.paid ? body.fee.paidAt : null,
      receivedBy: body.fee.receivedBy ? toParty(body.fee.receivedBy) : null,
      invoiceNumber: body.fee.invoiceNumber,
      expenses: body.expenses.map((e) => ({
        paidBy: e.paidBy ? toParty(e.paidBy) : null,
        title: e.title,
        amountCents: e.amountCents,
        ...(e.receiptFileId ? { receiptFileId: e.receiptFileId } : {})
      })),
      rules,
      version: body.version + 1,
      updatedAt: now
    }
    return writtenRow(tx
      .insert(gigMoney)
      .values({ gigId, ...values })
      .onConflictDoUpdate({ target: gigMoney.gigId, set: values })
      .returning())
  })
}

/** Every gig's money of a year (by the gig's date), with the gig's name and date. */
export function moneyOfYear (db: Db, year: number) {
  return db
    .select({ money: gigMoney, name: gigs.name, date: gigs.date })
    .from(gigMoney)
    .innerJoin(gigs, eq(gigs.id, gigMoney.gigId))
    .where(like(gigs.date, `${year}-%`))
    .orderBy(asc(gigs.date), asc(gigs.id))
    .all()
}

export function allMoney (db: Db) {
  return db.select().from(gigMoney).all()
}

export function memberNames (db: Db): Map<number, string> {
  return new Map(db.select({ id: users.id, name: users.displayName }).from(users).all()
    .map((row) => [row.id, row.name]))
}

export function insertPayment (db: Db, body: PaymentPostType, paidOn: string, userId: number,
  now: string) {
  checkMembers(db, [body.from, body.to].flatMap((p) => p.userId !== undefined ? [p.userId] : []))
  return writtenRow(db.insert(moneyPayments).values({
    fromParty: toParty(body.from),
    toParty: toParty(body.to),
    amountCents: body.amountCents,
    paidOn,
    note: body.note ?? null,
    createdBy: userId,
    createdAt: now
  }).returning())
}

export function listPayments (db: Db) {
  return db.select().from(moneyPayments).orderBy(asc(moneyPayments.paidOn), asc(moneyPayments.id))
    .all()
}

export function deletePayment (db: Db, id: number): boolean {
  return db.delete(moneyPayments).where(eq(moneyPayments.id, id)).run().changes > 0
}
