import { Type, type SchemaOptions, type Static, type TSchema } from '@sinclair/typebox'

/**
 * A nullable request field as `type: [T, "null"]`. The app's Ajv coerces types, and with `anyOf:
 * [T, null]` it turns `null` into `""` or `0` into `null` before a branch matches; a type list has
 * no such ambiguity.
 */
export const Nullable = <T extends TSchema>(schema: T, options: SchemaOptions = {}) => {
  // A plain copy: TypeBox's Kind symbol of T must not survive, or TypeBox would treat the result as
  // a T.
  const { type, ...rest } = JSON.parse(JSON.stringify(schema)) as { type: string }
  return Type.Unsafe<Static<T> | null>({ ...rest, ...options, type: [type, 'null'] })
}

/** Optional free text that a client may clear with null. */
export const NullableString = (maxLength: number, options: SchemaOptions = {}) =>
  Nullable(Type.String({ maxLength }), options)
