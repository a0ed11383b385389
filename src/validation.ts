import { AjvCompiler } from '@fastify/ajv-compiler'
import {
  SerializerSelector,
  type SerializerFactory
} from '@fastify/fast-json-stringify-compiler'
import type { FastifySchemaCompiler, FastifyServerOptions } from 'fastify'
import { skipUnreadableRows, type UnreadableRowsSink } from '#src/http/unreadable-rows.js'

/** What Fastify passes to a validator compiler: `{ schema, method, url, httpPart }`. */
type RouteSchema = Parameters<FastifySchemaCompiler<unknown>>[0]
type Serialize = (data: unknown) => string
type ValidatorPool = (
  externalSchemas: unknown,
  options: Record<string, unknown>
) => (route: RouteSchema) => unknown

// @fastify/ajv-compiler's typings describe its compile function as taking a bare schema, and
// Fastify's schemaController option inherits that; at run time Fastify passes the route definition
// (RouteSchema), as to any validator compiler, and this file needs its httpPart. Hence the two
// casts at this boundary (here and at the end of createSchemaController);
// test/src/schema-compilation.test.ts fails if a release changes what is passed (body values
// coerced, or query strings not).
const ajvPool = AjvCompiler() as unknown as ValidatorPool
// allErrors: a 400 names every offending field. removeAdditional off: unknown properties are
// refused.
const common = { allErrors: true, removeAdditional: false, useDefaults: true }

/** `YYYY-MM-DDTHH:MM` of a day that exists (the pattern already fixed the shape). */
export function isRealLocalDateTime (value: string): boolean {
  const [year, month, day] = value.slice(0, 10).split('-').map(Number) as [number, number, number]
  const date = new Date(Date.UTC(year, month - 1, day))
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  )
}
const localDateTime = {
  type: 'string' as const,
  validate: (value: string) => value.length < 10 || isRealLocalDateTime(value)
}
const addFormats = (ajv: {
  addFormat(name: string, format: typeof localDateTime): unknown
}) => ajv.addFormat('local-date-time', localDateTime)

/**
 * An Ajv validate function as Fastify calls it: `errors` after a failed call, `schemaEnv` for root
 * coercion.
 */
interface Validate {
  (data: unknown, context?: unknown): unknown
  errors?: unknown
  schemaEnv?: unknown
}

/**
 * Compiles on the first call instead of at start; Fastify reads `errors` and `schemaEnv` from it.
 */
function lazyValidator (compile: () => Validate): Validate {
  let validate: Validate | undefined
  const lazy: Validate = (data, context) => {
    validate ??= compile()
    const valid = validate(data, context)
    lazy.errors = validate.errors
    return valid
  }
  // Truthy so that Fastify passes the parent object and Ajv may coerce a root value.
  lazy.schemaEnv = true
  return lazy
}

/**
 * Ajv's coercion turns the text "Infinity" or "1e400" into the number Infinity, which passes
 * `integer` and skips `minimum`/`maximum` (they only test finite numbers): a number in a path,
 * query string or header must be finite.
 */
function finiteNumbersOnly (validate: Validate): Validate {
  const checked: Validate = (data, context) => {
    const valid = validate(data, context)
    checked.errors = validate.errors
    if (!valid || data === null || typeof data !== 'object') return valid
    for (const [key, value] of Object.entries(data)) {
      const values: unknown[] = Array.isArray(value) ? value : [value]
      if (values.some((v) => typeof v === 'number' && !Number.isFinite(v))) {
        checked.errors = [
          {
            instancePath: `/${key}`,
            schemaPath: '#/type',
            keyword: 'type',
            params: {},
            message: 'must be a finite number'
          }
        ]
        return false
      }
    }
    return true
  }
  checked.schemaEnv = validate.schemaEnv
  return checked
}

function lazySerializer (compile: () => Serialize): Serialize {
  let serialize: Serialize | undefined
  return (data) => (serialize ??= compile())(data)
}

export interface SchemaControllerOptions {
  /**
   * Compile every validator and serializer when the routes are registered (tests: a broken schema
   * fails at start) instead of on first use (the server: most of the 50-odd routes are not called
   * in the first seconds, and compiling them all took a quarter of the start time).
   */
  compileAtStart?: boolean
  /** Told of rows a list answer left out because they could not be serialized. */
  onUnreadableRows?: UnreadableRowsSink
}

/**
 * Query strings and path params arrive as text and need coercion ("7" → 7); JSON bodies are typed
 * already, and coercing them is wrong: with `anyOf: [string, null]` Ajv would turn null into "".
 * Many routes share a schema (id params, list queries, the error answers every route declares):
 * each distinct one is compiled once per kind.
 */
export function createSchemaController (
  { compileAtStart = false, onUnreadableRows = () => {} }: SchemaControllerOptions = {}
) {
  return {
    compilersFactory: {
      buildSerializer (...[externalSchemas, options]: Parameters<SerializerFactory>) {
        // fast-json-stringify picks anyOf branches with its own Ajv, which needs the format too.
        const ajv = { ...options?.ajv, formats: { 'local-date-time': localDateTime } }
        const compile = SerializerSelector()(externalSchemas, { ...options, ajv })
        const compiled = new Map<string, Serialize>()
        return (route: Parameters<ReturnType<SerializerFactory>>[0]) => {
          const key = JSON.stringify(route.schema)
          let serialize = compiled.get(key)
          if (!serialize) {
            serialize = compileAtStart ? compile(route) : lazySerializer(() => compile(route))
            compiled.set(key, serialize)
          }
          return skipUnreadableRows(serialize, route, compile, onUnreadableRows)
        }
      },
      buildValidator (externalSchemas: unknown, serverOptions?: Record<string, unknown>) {
        const withCoercion = (coerceTypes: false | 'array') => ({
          ...serverOptions,
          customOptions: { ...common, coerceTypes },
          onCreate: addFormats
        })
        const bodyValidator = ajvPool(externalSchemas, withCoercion(false))
        const textValidator = ajvPool(externalSchemas, withCoercion('array'))
        const compiled = new Map<string, Validate>()
        return (route: RouteSchema) => {
          const kind = route.httpPart === 'body' ? 'body' : 'text'
          const key = kind + JSON.stringify(route.schema)
          let validate = compiled.get(key)
          if (!validate) {
            const compile = () =>
              (kind === 'body' ? bodyValidator : textValidator)(route) as Validate
            validate = compileAtStart ? compile() : lazyValidator(compile)
            if (kind === 'text') validate = finiteNumbersOnly(validate)
            compiled.set(key, validate)
          }
          return validate
        }
      }
    }
  } as unknown as NonNullable<FastifyServerOptions['schemaController']>
}

/**
 * A response schema's serializer for bytes built outside a request (the live view rendered once
 * for its pollers and its event-stream followers): the compiler Fastify uses for route answers.
 */
export function compileSerializer (schema: unknown): Serialize {
  return SerializerSelector()({}, {})({ schema, method: 'GET', url: '', httpStatus: '200' })
}
