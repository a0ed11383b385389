import { Type, type Static } from '@sinclair/typebox'
import { Instant, StrictObject } from './common.js'

export const CalendarUrl = Type.Object(
  {
    url: Type.String({ description: 'personal feed URL; shown only now (the server keeps a hash)' })
  },
  { description: 'The personal iCalendar subscription URL' }
)
export const CalendarStatus = Type.Object({
  enabled: Type.Boolean(),
  createdAt: Type.Union([Instant, Type.Null()])
})
export type CalendarStatusType = Static<typeof CalendarStatus>

export const CalendarTokenParams = StrictObject({
  token: Type.String({ minLength: 1, maxLength: 200 })
})
