import { Type, type Static } from '@sinclair/typebox'
import { Id, Instant, LocalDateTime, Nullable, NullableText, StrictObject } from './common.js'
import { CHECKLIST_LIMITS } from '#shared/limits.js'

/** Items per gig at most. */
export const MAX_CHECKLIST_ITEMS = 200

export const ChecklistItem = Type.Object({
  id: Type.Integer(),
  gigId: Type.Integer(),
  position: Type.Integer({ description: '0-based, dense: 0 … n-1 in list order' }),
  title: Type.String(),
  category: Nullable(Type.String()),
  assigneeId: Nullable(Type.Integer()),
  assigneeName: Nullable(Type.String({ description: "the assignee's display name" })),
  dueAt: Nullable(LocalDateTime),
  done: Type.Boolean(),
  doneAt: Nullable(Instant),
  doneBy: Nullable(Type.Integer({ description: 'who ticked it off' })),
  notes: Nullable(Type.String()),
  createdAt: Instant,
  updatedAt: Instant
})
export type ChecklistItemType = Static<typeof ChecklistItem>

const fields = {
  category: Type.Optional(
    NullableText(CHECKLIST_LIMITS.category, {
      description: 'free text, e.g. Technik, Orga, Transport'
    })
  ),
  assigneeId: Type.Optional(Nullable(Id, { description: 'an active user; null = nobody' })),
  dueAt: Type.Optional(Nullable(LocalDateTime)),
  done: Type.Optional(Type.Boolean()),
  notes: Type.Optional(NullableText(CHECKLIST_LIMITS.notes)),
  position: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: MAX_CHECKLIST_ITEMS,
      description: 'where to put it (0 = first); beyond the end = last. Default: last'
    })
  )
}
const Title = Type.String({ minLength: 1, maxLength: CHECKLIST_LIMITS.title, pattern: '\\S' })

export const ChecklistItemCreate = StrictObject({ title: Title, ...fields })
export type ChecklistItemCreateType = Static<typeof ChecklistItemCreate>

export const ChecklistItemPatch = StrictObject(
  { title: Type.Optional(Title), ...fields },
  {
    minProperties: 1,
    description: 'Editors change anything; the assignee (any role) may send only `done`.'
  }
)
export type ChecklistItemPatchType = Static<typeof ChecklistItemPatch>

export const ChecklistItemParams = StrictObject({ id: Id, itemId: Id })
