import type { surveyAnswers } from '#src/db/schema.js'
import type { SourceRow } from './source.js'
import { fit, joinNotes, type MapState } from './state.js'
import { cleanText, flag, mapAnswer, parseDateTime, toInstant } from './values.js'

// libreStage surveys: a question (`rf_survey`) with fields (the options) that each member answers
// yes, no or maybe, with an optional comment. Date surveys ("Terminumfrage") become Bandstand date
// surveys when every option is a date; every field is answered on its own, so polls allow several
// "yes" (multiple choice).

const num = (value: unknown) => Number(value)
const byId = (a: SourceRow, b: SourceRow) => num(a.id) - num(b.id)

export function mapSurveys (s: MapState): void {
  const tally = s.tally('surveys', 'surveys')
  const fieldsBySurvey = new Map<number, SourceRow[]>()
  for (const row of [...s.source.rows.survey_field].sort(byId)) {
    const list = fieldsBySurvey.get(num(row.id_survey)) ?? []
    list.push(row)
    fieldsBySurvey.set(num(row.id_survey), list)
  }
  // A survey whose creator is gone belongs to an admin (Bandstand needs an owner).
  const owner =
    s.rows.users.find((u) => u.role === 'admin' && u.status === 'active')?.id ??
    s.ctx.existingUsers.find((u) => u.role === 'admin')?.id ??
    s.rows.users[0]?.id
  /** libreStage field id → Bandstand survey and option ids. */
  const options = new Map<number, { surveyId: number; optionId: number }>()

  for (const row of s.source.rows.surveys) {
    const sourceId = num(row.id)
    const createdBy = s.users.get(num(row.user_created)) ?? owner
    if (createdBy === undefined) {
      tally.skip(sourceId, 'neither its creator nor an admin was imported')
      continue
    }
    if (!s.users.has(num(row.user_created))) tally.changed('creator gone: owned by an admin')
    const fields = fieldsBySurvey.get(sourceId) ?? []
    const wantsDates = /termin|date|datum|zeit/i.test(cleanText(row.kind_of_survey) ?? '')
    const dates = fields.map((f) => parseDateTime(f.field_text))
    const kind = wantsDates && fields.length > 0 && dates.every((d) => d) ? 'date' : 'poll'
    if (wantsDates && kind === 'poll') {
      tally.changed('date survey with options that are no dates: imported as a poll')
    }
    if (fields.length < 2) tally.changed('fewer than 2 options')
    const question = cleanText(row.rf_survey) ?? `Umfrage (libreStage #${sourceId})`
    const [firstLine = question, ...more] = question.split('\n')
    const title = fit(tally, firstLine, 200, 'title')!
    const longTitle = [...firstLine].length > 200
    let status: 'open' | 'closed' = flag(row.closed) ? 'closed' : 'open'
    if (!flag(row.released) && status === 'open') {
      tally.changed('not released in libreStage (a draft): imported closed')
      status = 'closed'
    }
    const createdAt = toInstant(row.datum) ?? s.stamp
    const id = s.id('surveys')
    s.rows.surveys.push({
      id,
      title,
      description: fit(
        tally,
        joinNotes(longTitle && firstLine, more.join('\n').trim()),
        2000,
        'description'
      ),
      kind,
      multipleChoice: true,
      status,
      closesAt: null,
      createdBy,
      createdAt,
      updatedAt: createdAt
    })
    fields.forEach((field, position) => {
      const optionId = s.id('survey_options')
      const date = dates[position]
      s.rows.surveyOptions.push({
        id: optionId,
        surveyId: id,
        position,
        label: fit(tally, cleanText(field.field_text), 200, 'option') ?? `Option ${position + 1}`,
        at: kind === 'date' && date ? `${date.date}T${date.time ?? '00:00'}` : null
      })
      options.set(num(field.id), { surveyId: id, optionId })
    })
    tally.imported()
  }

  const fieldTally = s.tally('survey_field', 'survey_options')
  for (const row of s.source.rows.survey_field) {
    if (options.has(num(row.id))) fieldTally.imported()
    else fieldTally.skip(row.id, 'its survey was not imported')
  }

  const answerTally = s.tally('survey_feedback', 'survey_answers')
  const latest = new Map<string, { sourceId: number; row: typeof surveyAnswers.$inferInsert }>()
  const ordered = [...s.source.rows.survey_feedback].sort(
    (a, b) => String(a.datum ?? '').localeCompare(String(b.datum ?? '')) || byId(a, b)
  )
  for (const row of ordered) {
    const sourceId = num(row.id)
    const option = options.get(num(row.id_sv_field))
    const userId = s.users.get(num(row.id_user))
    const value = mapAnswer(row.value)
    if (option === undefined) answerTally.skip(sourceId, 'the option was not imported')
    else if (userId === undefined) answerTally.skip(sourceId, 'the user no longer exists')
    else if (value === undefined) {
      answerTally.skip(sourceId, `value "${cleanText(row.value) ?? ''}" is not yes, maybe or no`)
    } else {
      const key = `${option.optionId}:${userId}`
      const earlier = latest.get(key)
      if (earlier) answerTally.skip(earlier.sourceId, 'a later answer of the same member counts')
      latest.set(key, {
        sourceId,
        row: {
          ...option,
          userId,
          value,
          comment: fit(answerTally, cleanText(row.comment), 200, 'comment'),
          answeredAt: toInstant(row.datum) ?? s.stamp
        }
      })
    }
  }
  for (const { row } of latest.values()) {
    s.rows.surveyAnswers.push(row)
    answerTally.imported()
  }
}
