import { AjvCompiler } from '@fastify/ajv-compiler'
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler'
import type { FastifyServerOptions } from 'fastify'

interface RouteSchema {
  schema: unknown
  httpPart?: string
}
type Serialize = (data: unknown) => string
type SerializerPool = (externalSchemas: unknown, options?: unknown) => (route: RouteSchema) => Serialize
type Compile = (route: RouteSchema) => unknown
type Pool = (externalSchemas: unknown, options: Record<string, unknown>) => Compile

// The package's typings describe the compile function by its schema only; at run time Fastify passes
// the route definition ({ schema, method, url, httpPart }), which is what this file relies on.
const ajvPool = AjvCompiler() as unknown as Pool
// allErrors: a 400 names every offending field. removeAdditional off: unknown properties are refused.
const common = { allErrors: true, removeAdditional: false, useDefaults: true }

/** `YYYY-MM-DDTHH:MM` of a day that exists (the pattern already fixed the shape). */
export function isRealLocalDateTime(value: string): boolean {
  const [year, month, day] = value.slice(0, 10).split('-').map(Number) as [number, number, number]
  const date = new Date(Date.UTC(year, month - 1, day))
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
}
const addFormats = (ajv: { addFormat(name: string, format: { type: 'string'; validate: (value: string) => boolean }): unknown }) =>
  ajv.addFormat('local-date-time', { type: 'string', validate: (value) => value.length < 10 || isRealLocalDateTime(value) })

/**
 * Query strings and path params arrive as text and need coercion ("7" → 7); JSON bodies are typed
 * already, and coercing them is wrong: with `anyOf: [string, null]` Ajv would turn null into "".
 */
export const schemaController = {
  compilersFactory: {
    /**
     * Every route declares the same few error answers (see plugins/core/auth.ts): one serializer per
     * distinct schema instead of one per route and status halves the time to start.
     */
    buildSerializer(externalSchemas: unknown, options?: unknown) {
      const compile = (SerializerSelector() as unknown as SerializerPool)(externalSchemas, options)
      const compiled = new Map<string, Serialize>()
      return (route: RouteSchema) => {
        const key = JSON.stringify(route.schema)
        let serialize = compiled.get(key)
        if (!serialize) compiled.set(key, (serialize = compile(route)))
        return serialize
      }
    },
    buildValidator(externalSchemas: unknown, serverOptions?: Record<string, unknown>) {
      const withCoercion = (coerceTypes: false | 'array') => ({ ...serverOptions, customOptions: { ...common, coerceTypes }, onCreate: addFormats })
      const bodyValidator = ajvPool(externalSchemas, withCoercion(false))
      const textValidator = ajvPool(externalSchemas, withCoercion('array'))
      // Many routes share a schema (id params, list queries): compile each distinct one once per part kind.
      const compiled = new Map<string, unknown>()
      return (route: RouteSchema) => {
        const kind = route.httpPart === 'body' ? 'body' : 'text'
        const key = kind + JSON.stringify(route.schema)
        if (!compiled.has(key)) compiled.set(key, (kind === 'body' ? bodyValidator : textValidator)(route))
        return compiled.get(key)
      }
    }
  }
} as unknown as NonNullable<FastifyServerOptions['schemaController']>
