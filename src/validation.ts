import { AjvCompiler } from '@fastify/ajv-compiler'
import type { FastifyServerOptions } from 'fastify'

interface RouteSchema {
  schema: unknown
  httpPart?: string
}
type Compile = (route: RouteSchema) => unknown
type Pool = (externalSchemas: unknown, options: Record<string, unknown>) => Compile

// The package's typings describe the compile function by its schema only; at run time Fastify passes
// the route definition ({ schema, method, url, httpPart }), which is what this file relies on.
const ajvPool = AjvCompiler() as unknown as Pool
// allErrors: a 400 names every offending field. removeAdditional off: unknown properties are refused.
const common = { allErrors: true, removeAdditional: false, useDefaults: true }

/**
 * Query strings and path params arrive as text and need coercion ("7" → 7); JSON bodies are typed
 * already, and coercing them is wrong: with `anyOf: [string, null]` Ajv would turn null into "".
 */
export const schemaController = {
  compilersFactory: {
    buildValidator(externalSchemas: unknown, serverOptions?: Record<string, unknown>) {
      const withCoercion = (coerceTypes: false | 'array') => ({ ...serverOptions, customOptions: { ...common, coerceTypes } })
      const bodyValidator = ajvPool(externalSchemas, withCoercion(false))
      const textValidator = ajvPool(externalSchemas, withCoercion('array'))
      return (route: RouteSchema) => (route.httpPart === 'body' ? bodyValidator : textValidator)(route)
    }
  }
} as unknown as NonNullable<FastifyServerOptions['schemaController']>
