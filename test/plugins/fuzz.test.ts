import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { createTestApp, createUser, sessionClient } from '#test/helpers.js'
import { seedDemo } from '#src/seed/index.js'
import type { App } from '#src/app.js'

interface JsonSchema {
  type?: string | string[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  items?: JsonSchema
  anyOf?: JsonSchema[]
  enum?: unknown[]
  minimum?: number
  maximum?: number
}
interface Operation {
  method: string
  path: string
  parameters: Array<{ in: 'path' | 'query'; name: string; schema?: JsonSchema }>
  body?: JsonSchema
}

// Operations left out: they end the fuzzing session or are rate limited by design, or (the live
// event stream) answer an existing gig with a stream that does not end until it is replaced
// (tested elsewhere).
const EXCLUDED = new Set([
  'POST /login',
  'POST /refresh',
  'POST /logout',
  'PUT /change_password',
  'PUT /update_user',
  'GET /gigs_lm/{id}/events'
])

function operations (app: App): Operation[] {
  const spec = app.swagger() as {
    paths: Record<
      string,
      Record<
        string,
        {
          parameters?: Operation['parameters']
          requestBody?: { content: Record<string, { schema: JsonSchema }> }
        }
      >
    >
  }
  return Object.entries(spec.paths).flatMap(([path, ops]) =>
    Object.entries(ops)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        parameters: op.parameters ?? [],
        body: op.requestBody?.content['application/json']?.schema
      }))
      .filter((op) => !EXCLUDED.has(`${op.method} ${op.path}`))
  )
}

const nasty = fc.constantFrom(
  '',
  ' ',
  "' OR '1'='1",
  '"; DROP TABLE songs; --',
  '<script>alert(1)</script>',
  '{{7*7}}',
  // eslint-disable-next-line no-template-curly-in-string -- a hostile input, not a template
  '${jndi:ldap://x}',
  '../../etc/passwd',
  '=HYPERLINK("http://x")',
  '\u0000',
  '\uD800',
  'Ünïcödé 🎸 ß',
  '𝕳𝖊𝖑𝖑𝖔',
  'x'.repeat(100_000)
)
const nastyNumber = fc.constantFrom(
  -1,
  0,
  -2147483649,
  2147483648,
  1e308,
  -1e308,
  1.5,
  Number.MAX_SAFE_INTEGER
)
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  nasty,
  nastyNumber,
  fc.boolean(),
  fc.constant(null),
  fc.array(nasty, { maxLength: 3 }),
  fc.dictionary(fc.string(), nasty, { maxKeys: 3 }),
  fc.jsonValue()
)

/**
 * A plausible value of the declared type, so that deeper validation and handlers are reached too.
 */
function plausible (schema: JsonSchema | undefined): fc.Arbitrary<unknown> {
  if (!schema) return anyValue
  if (schema.enum) return fc.constantFrom(...schema.enum)
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map(plausible))
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type
  switch (type) {
    case 'integer': {
      // Small values reach existing rows; ranges that start higher (a year) keep their own.
      const min = schema.minimum ?? 1
      return fc.integer({ min, max: Math.min(schema.maximum ?? min + 499, Math.max(min, 1) + 499) })
    }
    case 'number':
      return fc.double({ noNaN: true, min: -1000, max: 1000 })
    case 'boolean':
      return fc.boolean()
    case 'array':
      return fc.array(plausible(schema.items), { maxLength: 3 })
    case 'object':
      return objectOf(schema)
    case 'null':
      return fc.constant(null)
    default:
      return fc.oneof(
        fc.string({ maxLength: 20 }),
        fc.constantFrom(
          '2026-12-31',
          '20:00',
          '2026-12-31T20:00',
          'https://example.org',
          'C-Dur',
          'Bb',
          'yes'
        )
      )
  }
}

/** Objects that mix plausible, wrong-typed, missing and extra fields. */
function objectOf (schema: JsonSchema): fc.Arbitrary<Record<string, unknown>> {
  const props = Object.entries(schema.properties ?? {})
  const fields = props.map(([name, sub]) =>
    fc.tuple(
      fc.constant(name),
      fc.option(
        fc.oneof({ weight: 3, arbitrary: plausible(sub) }, { weight: 1, arbitrary: anyValue }),
        { nil: undefined, freq: 4 }
      )
    )
  )
  return fc
    .tuple(
      fc.tuple(...fields),
      fc.option(
        fc.dictionary(fc.string({ minLength: 1, maxLength: 10 }), anyValue, { maxKeys: 2 }),
        { freq: 4 }
      )
    )
    .map(([pairs, extra]) => ({
      ...Object.fromEntries(pairs.filter(([, v]) => v !== undefined)),
      ...(extra ?? {})
    }))
}

const pathValue = fc.oneof(
  fc.integer({ min: 1, max: 30 }).map(String),
  fc.constantFrom(
    '0',
    '-1',
    '99999999999999999999',
    '1e3',
    '0x10',
    'abc',
    '1;DROP',
    '%00',
    '１',
    'null',
    ' 1',
    '1.5'
  ),
  fc.string({ maxLength: 30 })
)

/**
 * Row-by-row fingerprint of every table: a rejected request must leave it as it was. Not
 * `mail_watch`, what the member mail's watcher has seen of the events: its timer writes it in the
 * background (the fixture's events are written without a request).
 */
function fingerprint (app: App): string {
  const hash = createHash('sha256')
  const tables = app.sqlite
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE " +
        "'sqlite_%' AND name <> 'mail_watch' ORDER BY name"
    )
    .all() as Array<{ name: string }>
  for (const { name } of tables) {
    hash.update(name)
    for (const row of app.sqlite.prepare(`SELECT * FROM "${name}" ORDER BY rowid`).raw().all()) {
      hash.update(JSON.stringify(row, (_k, v) => (Buffer.isBuffer(v) ? v.toString('base64') : v)))
    }
  }
  return hash.digest('hex')
}

test(
  'fuzzing every operation of the OpenAPI document: never 5xx, always the ' +
    'error shape, rejected requests change nothing',
  { timeout: 600_000 },
  async (t) => {
    // As the server runs: validators and serializers compiled on first use.
    const ctx = await createTestApp({}, {}, { compileSchemasAtStart: false })
    t.after(() => ctx.close())
    await seedDemo(ctx.app.db, { now: ctx.now() })
    const admin = await createUser(ctx.app, 'fuzzadmin', 'admin')
    const ops = operations(ctx.app)
    const statuses = new Map<number, number>()
    assert.ok(ops.length >= 40, `operations found: ${ops.length}`)

    for (const op of ops) {
      const pathParams = op.parameters.filter((p) => p.in === 'path')
      const queryParams = op.parameters.filter((p) => p.in === 'query')
      const request = fc.record({
        path: fc.tuple(...pathParams.map(() => pathValue)),
        query: fc.tuple(
          ...queryParams.map((p) =>
            fc.option(fc.oneof(plausible(p.schema).map(String), nasty, fc.string()), {
              nil: undefined
            })
          )
        ),
        body: op.body
          ? fc.oneof(
            { weight: 5, arbitrary: objectOf(op.body) },
            { weight: 1, arbitrary: anyValue }
          )
          : fc.constant(undefined)
      })
      await fc.assert(
        fc.asyncProperty(request, async ({ path, query, body }) => {
          let url = op.path
          pathParams.forEach(
            (p, i) => (url = url.replace(`{${p.name}}`, encodeURIComponent(path[i]!)))
          )
          const search = new URLSearchParams()
          queryParams.forEach(
            (p, i) => query[i] !== undefined && search.set(p.name, String(query[i]))
          )
          // A fresh session each time: a fuzzed DELETE may end the one before.
          const c = sessionClient(ctx.app, admin)
          const before = fingerprint(ctx.app)
          const response = await c.request(
            op.method,
            `${url}${search.size ? `?${search}` : ''}`,
            body,
            body === undefined ? {} : { 'content-type': 'application/json' }
          )
          statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1)
          const label = `${op.method} ${url} ${JSON.stringify(body)?.slice(0, 300)}`
          assert.ok(
            response.statusCode < 500,
            `${label} → ${response.statusCode} ${response.body.slice(0, 300)}`
          )
          // The pages of the mails' links (answer, unsubscribe) tell a person in HTML.
          const page = String(response.headers['content-type']).startsWith('text/html')
          if (response.statusCode >= 400 && !page) {
            const error = response.json() as Record<string, unknown>
            assert.equal(error.statusCode, response.statusCode, label)
            assert.equal(typeof error.code, 'string', label)
            assert.equal(typeof error.message, 'string', label)
            assert.equal(typeof error.error, 'string', label)
          }
          if (response.statusCode >= 400) {
            assert.equal(
              fingerprint(ctx.app),
              before,
              `${label} → ${response.statusCode} changed the database`
            )
          }
        }),
        {
          numRuns: Number(process.env.FUZZ_RUNS ?? 12),
          seed: Number(process.env.FUZZ_SEED ?? 20261120)
        }
      )
    }
    t.diagnostic(
      `${ops.length} operations; answers: ${[...statuses]
        .sort()
        .map(([s, n]) => `${s}×${n}`)
        .join(', ')}`
    )
    // Not everything may bounce off validation: some fuzzed requests must reach the handlers and
    // succeed.
    assert.ok(
      [...statuses.keys()].some((s) => s < 300),
      'some requests succeeded'
    )
    assert.ok(statuses.has(404), 'some requests reached the handlers with unknown ids')
  }
)
