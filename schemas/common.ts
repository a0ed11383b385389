import {
  Type,
  type ObjectOptions,
  type SchemaOptions,
  type Static,
  type TLiteral,
  type TObject,
  type TProperties,
  type TUnion
} from '@sinclair/typebox'
import { ROLES, WEAK_PASSWORD_REASONS } from '#shared/enums.js'

/** Request bodies reject unknown properties: nothing is silently stored or ignored. */
export const StrictObject = <T extends TProperties>(
  properties: T,
  options: ObjectOptions = {}
): TObject<T> => Type.Object(properties, { additionalProperties: false, ...options })

export const ErrorResponse = Type.Object(
  {
    statusCode: Type.Integer(),
    error: Type.String(),
    code: Type.String({ description: 'stable machine-readable code, e.g. GIG_NOT_FOUND' }),
    message: Type.String(),
    details: Type.Optional(
      Type.Array(
        Type.Object({
          field: Type.String(),
          message: Type.String(),
          keyword: Type.String({
            description:
              'the JSON Schema keyword that failed (Ajv): required, maxLength, minLength, ' +
              'pattern, format, enum, minimum, maximum, type, additionalProperties, …'
          }),
          params: Type.Object(
            {},
            {
              additionalProperties: true,
              description: "the keyword's parameters (Ajv), e.g. { limit: 120 } for maxLength"
            }
          )
        }),
        { description: 'for validation errors: every offending field' }
      )
    ),
    reason: Type.Optional(
      Type.Unsafe<(typeof WEAK_PASSWORD_REASONS)[number]>({
        type: 'string',
        enum: [...WEAK_PASSWORD_REASONS],
        description: 'WEAK_PASSWORD: why the password is refused'
      })
    )
  },
  { description: 'Error (Fastify shape with a stable code)' }
)
export type ErrorResponseBody = Static<typeof ErrorResponse>

export const Id = Type.Integer({ minimum: 1, maximum: 2147483647 })
export const IdParams = StrictObject({ id: Id })
export type IdParamsType = Static<typeof IdParams>

// Upper-case T and Z only, and no leap second: JavaScript's Date cannot represent second 60.
export const Instant = Type.String({
  format: 'date-time',
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:[0-5]\\d(\\.\\d{1,9})?(Z|[+-]\\d{2}:\\d{2})$',
  description: 'RFC 3339 instant (answers are UTC)',
  examples: ['2026-12-31T19:00:00.000Z']
})
// The formats check that the day exists (no 31 February); see src/validation.ts.
export const DateString = Type.String({
  format: 'date',
  pattern: '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$',
  description: 'calendar date YYYY-MM-DD',
  examples: ['2026-12-31']
})
export const TimeString = Type.String({
  pattern: '^([01]\\d|2[0-3]):[0-5]\\d$',
  description: 'wall-clock time HH:MM in the band timezone',
  examples: ['20:00']
})
export const LocalDateTime = Type.String({
  format: 'local-date-time',
  pattern: '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])T([01]\\d|2[0-3]):[0-5]\\d$',
  description: 'local date-time YYYY-MM-DDTHH:MM in the band timezone',
  examples: ['2026-12-31T18:30']
})
export const Role = LiteralUnion(ROLES)
export type RoleType = Static<typeof Role>

/** Nullable fields as one schema with `type: [t, "null"]` (see schemas/nullable.ts). */
export { Nullable, NullableString as NullableText } from './nullable.js'

/** A fixed set of strings (src/shared/enums.ts) as a union of literals (`anyOf` of `const`s). */
export function LiteralUnion<const T extends readonly string[]> (
  values: T,
  options: SchemaOptions = {}
): TUnion<Array<TLiteral<T[number]>>> {
  return Type.Union(
    values.map((value) => Type.Literal(value)),
    options
  )
}

/**
 * A fixed set of strings as one `enum` schema: unions of literals become anyOf, which
 * fast-json-stringify checks branch by branch for every value it serializes (slow on long lists).
 */
export const StringEnum = <const T extends readonly string[]>(
  values: T,
  options: { description?: string; default?: T[number] } = {}
) => Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options })

export const NoContent = Type.Null({ description: 'No content' })
export const NotModified = Type.Null({
  description: 'Not modified: the ETag sent in If-None-Match is current'
})
