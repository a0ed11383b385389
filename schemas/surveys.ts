import { Type, type Static } from '@sinclair/typebox'
import { Id, Instant, LiteralUnion, LocalDateTime, StrictObject } from './common.js'
import { ANSWER_VALUES, SURVEY_KINDS, SURVEY_STATUSES } from '#shared/enums.js'
import { Nullable, NullableString as NullableText } from './nullable.js'
import { SURVEY_LIMITS } from '#shared/limits.js'

export const SurveyKind = LiteralUnion(SURVEY_KINDS, {
  description: 'poll: options are labels; date: options are local date-times (finding a date)'
})
export const SurveyStatus = LiteralUnion(SURVEY_STATUSES, {
  description: 'closed when closed by hand or when closesAt has passed'
})
export const AnswerValue = LiteralUnion(ANSWER_VALUES)

export const SurveyOptionInput = StrictObject({
  label: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: SURVEY_LIMITS.optionLabel,
      description: 'required for polls; for date surveys defaults to `at`'
    })
  ),
  at: Type.Optional(LocalDateTime)
})

export const SurveyCreate = StrictObject({
  title: Type.String({ minLength: 1, maxLength: SURVEY_LIMITS.title }),
  description: Type.Optional(NullableText(SURVEY_LIMITS.description)),
  kind: SurveyKind,
  multipleChoice: Type.Optional(
    Type.Boolean({
      description: 'polls only (default false: at most one yes); date surveys always allow several'
    })
  ),
  options: Type.Array(SurveyOptionInput, { minItems: 2, maxItems: 50 }),
  closesAt: Type.Optional(
    Nullable(Instant, { description: 'must be in the future; the survey closes by itself then' })
  )
})
export type SurveyCreateType = Static<typeof SurveyCreate>

export const SurveyOption = Type.Object({
  id: Type.Integer(),
  label: Type.String(),
  at: Type.Union([LocalDateTime, Type.Null()])
})

/** A member's word on one answer, like a Gig-o-Matic plan comment. */
const AnswerComment = Type.Union([Type.String(), Type.Null()], {
  description: "the member's comment on this answer"
})

export const MyAnswer = Type.Object({
  optionId: Type.Integer(),
  value: AnswerValue,
  comment: AnswerComment
})

export const Survey = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  kind: SurveyKind,
  multipleChoice: Type.Boolean(),
  options: Type.Array(SurveyOption),
  status: SurveyStatus,
  closesAt: Type.Union([Instant, Type.Null()]),
  createdBy: Type.Integer(),
  createdByName: Type.String(),
  createdAt: Instant,
  responseCount: Type.Integer({ description: 'members who answered' }),
  myResponse: Type.Union([Type.Array(MyAnswer), Type.Null()], {
    description: 'my answers, null when I have not answered'
  })
})
export type SurveyType = Static<typeof Survey>

export const OptionResult = Type.Object({
  optionId: Type.Integer(),
  yes: Type.Integer(),
  maybe: Type.Integer(),
  no: Type.Integer(),
  answers: Type.Array(
    Type.Object({
      userId: Type.Integer(),
      displayName: Type.String(),
      value: AnswerValue,
      comment: AnswerComment
    })
  )
})

export const SurveyDetail = Type.Composite([
  Survey,
  Type.Object({ results: Type.Array(OptionResult, { description: 'per option, in option order' }) })
])
export type SurveyDetailType = Static<typeof SurveyDetail>

export const SurveyResponseBody = StrictObject({
  answers: Type.Array(
    StrictObject({
      optionId: Id,
      value: AnswerValue,
      comment: Type.Optional(
        NullableText(SURVEY_LIMITS.answerComment, {
          description: 'optional comment on this answer (shown with the results); empty: none'
        })
      )
    }),
    {
      minItems: 1,
      maxItems: 50,
      description:
        'replaces all my previous answers to this survey; options left out stay unanswered'
    }
  )
})
export type SurveyResponseBodyType = Static<typeof SurveyResponseBody>

export const SurveyListQuery = Type.Object({ status: Type.Optional(SurveyStatus) })
export const SurveyIdParams = StrictObject({ id: Id })
