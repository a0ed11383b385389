import type { Db } from '#src/db/client.js'
import { surveyAnswers, surveyOptions, surveys } from '#src/db/schema.js'
import { todayIn } from '#shared/local-time.js'
import { writtenRow } from '#src/db/returning.js'

const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T12:00:00Z`) + days * 86400_000).toISOString().slice(0, 10)

/**
 * Two surveys with answers: a single-choice poll (band shirt colour) and a date survey for a
 * rehearsal weekend; the last user has answered neither (GET /me/todos shows them). Synchronous,
 * one transaction.
 */
export function seedSurveys (
  db: Db,
  ctx: { now: Date; userIds: number[]; timezone?: string }
): { surveyIds: number[] } {
  const stamp = ctx.now.toISOString()
  const earlier = new Date(ctx.now.getTime() - 2 * 86400_000).toISOString()
  const today = todayIn(ctx.timezone ?? 'Europe/Berlin', ctx.now)
  const creator = ctx.userIds[1] ?? ctx.userIds[0]
  if (creator === undefined) return { surveyIds: [] }
  const voters = ctx.userIds.slice(0, Math.max(1, ctx.userIds.length - 1))
  return db.transaction((tx) => {
    const poll = writtenRow(
      tx
        .insert(surveys)
        .values({
          title: 'Neue Bandshirts: welche Farbe?',
          description: 'Wir bestellen Ende des Monats. Eine Stimme pro Person.',
          kind: 'poll',
          multipleChoice: false,
          status: 'open',
          closesAt: new Date(ctx.now.getTime() + 14 * 86400_000).toISOString(),
          createdBy: creator,
          createdAt: earlier,
          updatedAt: earlier
        })
        .returning({ id: surveys.id })
    )
    const pollOptions = tx
      .insert(surveyOptions)
      .values(
        ['Schwarz', 'Dunkelrot', 'Petrol', 'Senfgelb'].map((label, position) => ({
          surveyId: poll.id,
          position,
          label,
          at: null
        }))
      )
      .returning({ id: surveyOptions.id })
      .all()
    voters.forEach((userId, u) => {
      pollOptions.forEach((option, o) => {
        // One yes per voter (single choice), a maybe or no on some of the others.
        const value = o === u % 3 ? 'yes' : (o + u) % 2 === 0 ? 'no' : 'maybe'
        tx.insert(surveyAnswers)
          .values({ surveyId: poll.id, optionId: option.id, userId, value, answeredAt: earlier })
          .run()
      })
    })

    const date = writtenRow(
      tx
        .insert(surveys)
        .values({
          title: 'Probenwochenende: wann passt es?',
          description: 'Zwei Tage Intensivprobe vor der Festivalsaison, Samstag ab 10 Uhr.',
          kind: 'date',
          multipleChoice: true,
          status: 'open',
          closesAt: null,
          createdBy: ctx.userIds[0]!,
          createdAt: stamp,
          updatedAt: stamp
        })
        .returning({ id: surveys.id })
    )
    const saturdays = [21, 28, 35, 42].map((days) => {
      const d = addDays(today, days)
      const shift = (6 - new Date(`${d}T12:00:00Z`).getUTCDay() + 7) % 7
      return `${addDays(d, shift)}T10:00`
    })
    const dateOptions = tx
      .insert(surveyOptions)
      .values(saturdays.map((at, position) => ({ surveyId: date.id, position, label: at, at })))
      .returning({ id: surveyOptions.id })
      .all()
    voters.forEach((userId, u) => {
      dateOptions.forEach((option, o) => {
        const value = (u + o) % 4 === 0 ? 'no' : (u * o) % 3 === 1 ? 'maybe' : 'yes'
        tx.insert(surveyAnswers)
          .values({ surveyId: date.id, optionId: option.id, userId, value, answeredAt: stamp })
          .run()
      })
    })
    return { surveyIds: [poll.id, date.id] }
  })
}
