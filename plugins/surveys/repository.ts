import { and, asc, countDistinct, desc, eq, inArray, sql } from '#src/db/orm.js'
import type { Db } from '#src/db/client.js'
import type { AnswerValue, SurveyStatus } from '#shared/enums.js'
import { surveyAnswers, surveyOptions, surveys, users } from '#src/db/schema.js'
import type { SurveyDetailType, SurveyType } from '#schemas/surveys.js'
import { isClosed, openCondition } from '#src/repositories/surveys.js'
import { writtenRow } from '#src/db/returning.js'

type Header = typeof surveys.$inferSelect & { createdByName: string }
type Answer = { optionId: number; value: AnswerValue; comment: string | null }

const headerColumns = {
  id: surveys.id,
  title: surveys.title,
  description: surveys.description,
  kind: surveys.kind,
  multipleChoice: surveys.multipleChoice,
  status: surveys.status,
  closesAt: surveys.closesAt,
  createdBy: surveys.createdBy,
  createdAt: surveys.createdAt,
  updatedAt: surveys.updatedAt,
  createdByName: users.displayName
}

function optionsOf (db: Db, surveyIds: number[]) {
  const bySurvey = new Map<number, SurveyType['options']>()
  if (surveyIds.length === 0) return bySurvey
  const rows = db
    .select({
      surveyId: surveyOptions.surveyId,
      id: surveyOptions.id,
      label: surveyOptions.label,
      at: surveyOptions.at
    })
    .from(surveyOptions)
    .where(inArray(surveyOptions.surveyId, surveyIds))
    .orderBy(asc(surveyOptions.surveyId), asc(surveyOptions.position))
    .all()
  for (const { surveyId, ...option } of rows) {
    const list = bySurvey.get(surveyId)
    if (list) list.push(option)
    else bySurvey.set(surveyId, [option])
  }
  return bySurvey
}

const toSurvey = (
  row: Header,
  options: SurveyType['options'],
  responseCount: number,
  mine: Answer[],
  now: string
): SurveyType => ({
  id: row.id,
  title: row.title,
  description: row.description,
  kind: row.kind,
  multipleChoice: row.multipleChoice,
  options,
  status: isClosed(row, now) ? 'closed' : 'open',
  closesAt: row.closesAt,
  createdBy: row.createdBy,
  createdByName: row.createdByName,
  createdAt: row.createdAt,
  responseCount,
  myResponse: mine.length > 0 ? mine : null
})

/** Newest first; four statements however many surveys and answers there are. */
export function listSurveys (
  db: Db,
  userId: number,
  now: string,
  status?: SurveyStatus
): SurveyType[] {
  const where =
    status === 'open'
      ? openCondition(now)
      : status === 'closed'
        ? sql`NOT (${openCondition(now)})`
        : undefined
  const rows = db
    .select(headerColumns)
    .from(surveys)
    .innerJoin(users, eq(users.id, surveys.createdBy))
    .where(where)
    .orderBy(desc(surveys.createdAt), desc(surveys.id))
    .all()
  if (rows.length === 0) return []
  const ids = rows.map((r) => r.id)
  const options = optionsOf(db, ids)
  const counts = new Map(
    db
      .select({ surveyId: surveyAnswers.surveyId, n: countDistinct(surveyAnswers.userId) })
      .from(surveyAnswers)
      .where(inArray(surveyAnswers.surveyId, ids))
      .groupBy(surveyAnswers.surveyId)
      .all()
      .map((r) => [r.surveyId, r.n])
  )
  const mine = new Map<number, Answer[]>()
  const myRows = db
    .select({
      surveyId: surveyAnswers.surveyId,
      optionId: surveyAnswers.optionId,
      value: surveyAnswers.value,
      comment: surveyAnswers.comment,
      position: surveyOptions.position
    })
    .from(surveyAnswers)
    .innerJoin(surveyOptions, eq(surveyOptions.id, surveyAnswers.optionId))
    .where(and(eq(surveyAnswers.userId, userId), inArray(surveyAnswers.surveyId, ids)))
    .orderBy(asc(surveyAnswers.surveyId), asc(surveyOptions.position))
    .all()
  for (const { surveyId, optionId, value, comment } of myRows) {
    const list = mine.get(surveyId)
    if (list) list.push({ optionId, value, comment })
    else mine.set(surveyId, [{ optionId, value, comment }])
  }
  return rows.map((row) =>
    toSurvey(row, options.get(row.id) ?? [], counts.get(row.id) ?? 0, mine.get(row.id) ?? [], now)
  )
}

export function findSurveyHeader (db: Db, id: number): Header | undefined {
  return db
    .select(headerColumns)
    .from(surveys)
    .innerJoin(users, eq(users.id, surveys.createdBy))
    .where(eq(surveys.id, id))
    .get()
}

export function getSurveyDetail (
  db: Db,
  id: number,
  userId: number,
  now: string
): SurveyDetailType | undefined {
  const row = findSurveyHeader(db, id)
  if (!row) return undefined
  const options = optionsOf(db, [id]).get(id) ?? []
  const answers = db
    .select({
      optionId: surveyAnswers.optionId,
      userId: surveyAnswers.userId,
      displayName: users.displayName,
      value: surveyAnswers.value,
      comment: surveyAnswers.comment
    })
    .from(surveyAnswers)
    .innerJoin(users, eq(users.id, surveyAnswers.userId))
    .where(eq(surveyAnswers.surveyId, id))
    .orderBy(asc(users.displayName), asc(users.id))
    .all()
  const results = new Map<number, SurveyDetailType['results'][number]>(
    options.map((o) => [o.id, { optionId: o.id, yes: 0, maybe: 0, no: 0, answers: [] }])
  )
  const responders = new Set<number>()
  const mineByOption = new Map<number, Answer>()
  for (const a of answers) {
    responders.add(a.userId)
    const result = results.get(a.optionId)
    if (result) {
      result[a.value]++
      result.answers.push({
        userId: a.userId,
        displayName: a.displayName,
        value: a.value,
        comment: a.comment
      })
    }
    if (a.userId === userId) {
      mineByOption.set(a.optionId, { optionId: a.optionId, value: a.value, comment: a.comment })
    }
  }
  const mine = options.flatMap((o) => mineByOption.get(o.id) ?? [])
  return { ...toSurvey(row, options, responders.size, mine, now), results: [...results.values()] }
}

export function createSurvey (
  db: Db,
  values: Omit<typeof surveys.$inferInsert, 'id'>,
  options: Array<{ label: string; at: string | null }>
): number {
  return db.transaction((tx) => {
    const { id } = writtenRow(tx.insert(surveys).values(values).returning({ id: surveys.id }))
    tx.insert(surveyOptions)
      .values(options.map((o, position) => ({ surveyId: id, position, label: o.label, at: o.at })))
      .run()
    return id
  })
}

export type ResponseOutcome =
  'ok' | 'not-found' | 'closed' | { unknownOption: number } | 'single-choice'

/**
 * Replaces the member's answers to one survey. Checks and writes share a transaction, so a survey
 * closed in between cannot take an answer, and a rejected answer leaves the previous one intact.
 */
export function replaceResponse (
  db: Db,
  surveyId: number,
  userId: number,
  answers: Answer[],
  now: string
): ResponseOutcome {
  return db.transaction((tx) => {
    const survey = tx.select().from(surveys).where(eq(surveys.id, surveyId)).get()
    if (!survey) return 'not-found'
    if (isClosed(survey, now)) return 'closed'
    const own = new Set(
      tx
        .select({ id: surveyOptions.id })
        .from(surveyOptions)
        .where(eq(surveyOptions.surveyId, surveyId))
        .all()
        .map((o) => o.id)
    )
    const foreign = answers.find((a) => !own.has(a.optionId))
    if (foreign) return { unknownOption: foreign.optionId }
    if (
      survey.kind === 'poll' &&
      !survey.multipleChoice &&
      answers.filter((a) => a.value === 'yes').length > 1
    ) {
      return 'single-choice'
    }
    tx.delete(surveyAnswers)
      .where(and(eq(surveyAnswers.surveyId, surveyId), eq(surveyAnswers.userId, userId)))
      .run()
    tx.insert(surveyAnswers)
      .values(
        answers.map((a) => ({
          surveyId,
          optionId: a.optionId,
          userId,
          value: a.value,
          comment: a.comment,
          answeredAt: now
        }))
      )
      .run()
    return 'ok'
  })
}

export function closeSurvey (db: Db, id: number, now: string): void {
  db.update(surveys)
    .set({ status: 'closed', updatedAt: now })
    .where(and(eq(surveys.id, id), eq(surveys.status, 'open')))
    .run()
}

export function deleteSurvey (db: Db, id: number): void {
  db.delete(surveys).where(eq(surveys.id, id)).run()
}
