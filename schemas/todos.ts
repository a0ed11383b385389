import { Type, type Static } from '@sinclair/typebox'
import { DateString, Instant, LocalDateTime, TimeString } from './common.js'

const NullableString = Type.Union([Type.String(), Type.Null()])

export const Todos = Type.Object({
  surveys: Type.Array(
    Type.Object({
      id: Type.Integer(),
      title: Type.String(),
      kind: Type.String(),
      closesAt: Type.Union([Instant, Type.Null()])
    }),
    {
      description: 'open surveys I have not answered (oldest first)'
    }
  ),
  songs: Type.Array(
    Type.Object({ id: Type.Integer(), title: Type.String(), artist: NullableString }),
    {
      description: 'proposed songs I have not voted on'
    }
  ),
  rehearsals: Type.Array(
    Type.Object({
      id: Type.Integer(),
      date: DateString,
      startTime: TimeString,
      endTime: TimeString,
      location: NullableString
    }),
    { description: 'rehearsals from today on without my availability answer' }
  ),
  gigs: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      date: DateString,
      startTime: Type.Union([TimeString, Type.Null()]),
      status: Type.String()
    }),
    { description: 'inquired or confirmed gigs from today on without my availability answer' }
  ),
  checklist: Type.Array(
    Type.Object({
      id: Type.Integer(),
      gigId: Type.Integer(),
      gigName: Type.String(),
      gigDate: DateString,
      title: Type.String(),
      category: NullableString,
      dueAt: Type.Union([LocalDateTime, Type.Null()])
    }),
    {
      description:
        'open checklist items assigned to me, of inquired or confirmed gigs from today on ' +
        '(due first, undated last)'
    }
  ),
  total: Type.Integer()
})
export type TodosType = Static<typeof Todos>
