import { getTableConfig, is, SQLiteTable } from '#src/db/orm.js'
import { Type, type TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import * as schema from '#src/db/schema.js'
import { isRealLocalDateTime } from '#src/validation.js'
import { DateString, Instant, LocalDateTime, TimeString } from '#schemas/common.js'
import { PartySchema } from '#schemas/money.js'
import { MONEY_LIMITS } from '#shared/limits.js'
import { readStoredConfig } from './app-settings.js'
import type { ColumnInfo } from './band-export.js'

// Every cell of a band export is checked before anything is written, as the API checks its input:
// the column's storage type (from the live database), and from src/db/schema.ts its enum, boolean
// and JSON modes. A wrong-typed value would otherwise be stored (SQLite keeps "abc" in an INTEGER
// column) and break every later read of the row. A column added later is checked by its declared
// type and modes without anyone writing a rule for it.

/** JSON columns whose shape the API defines; any other JSON column must hold valid JSON. */
const JSON_SHAPES: Record<string, TSchema> = {
  'users.instruments': Type.Array(Type.String()),
  'songs.composers': Type.Array(Type.String()),
  'songs.lyricists': Type.Array(Type.String()),
  'songs.arrangers': Type.Array(Type.String()),
  // The web app makes these links: http(s) only, as the API takes them.
  'songs.links': Type.Array(Type.String({ pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s]+$' })),
  'data_imports.summary': Type.Array(
    Type.Object({ table: Type.String(), read: Type.Integer(), imported: Type.Integer() })
  ),
  // A gig's money as the API stores it: parties, amounts in whole cents.
  'gig_money.received_by': PartySchema,
  'gig_money.expenses': Type.Array(Type.Object({
    paidBy: Type.Union([PartySchema, Type.Null()]),
    title: Type.String({ maxLength: MONEY_LIMITS.title }),
    amountCents: Type.Integer({ minimum: 0 }),
    receiptFileId: Type.Optional(Type.Union([Type.Integer(), Type.Null()]))
  }), { maxItems: MONEY_LIMITS.expenses }),
  'gig_money.rules': Type.Object({
    players: Type.Union([Type.Array(Type.Integer()), Type.Null()]),
    fixed: Type.Array(Type.Object({ to: PartySchema, amountCents: Type.Integer({ minimum: 0 }) })),
    percentages: Type.Array(Type.Object({
      to: PartySchema,
      basisPoints: Type.Integer({ minimum: 0, maximum: 10000 })
    }))
  }),
  'money_payments.from_party': PartySchema,
  'money_payments.to_party': PartySchema
}

/** Wall-clock date-times (the band's time zone); any other `…_at` column is an instant. */
const LOCAL_DATE_TIMES = new Set([
  'gig_schedule_items.at',
  'survey_options.at',
  'gig_checklist_items.due_at'
])

/**
 * The format of the date and time columns, by the schema's naming: `date` and `…_on` a date,
 * `…_time` a wall-clock time, `…_at` an instant (or one of LOCAL_DATE_TIMES). Code reading these
 * parses them (a survey's `closes_at` of "abc" answered 500 on /surveys).
 */
function formatOf (table: string, column: string): { pattern: RegExp; what: string } | undefined {
  // Written into every calendar feed's UID lines unescaped: a line break would add lines.
  if (table === 'installation' && column === 'uid') {
    return { pattern: /^[0-9a-f]{8,64}$/, what: 'an installation id (hex digits)' }
  }
  const of = (schema: { pattern?: string }, what: string) => ({
    pattern: new RegExp(schema.pattern!),
    what
  })
  if (LOCAL_DATE_TIMES.has(`${table}.${column}`)) {
    return of(LocalDateTime, 'a local date-time YYYY-MM-DDTHH:MM')
  }
  if (column === 'date' || column.endsWith('_on')) return of(DateString, 'a date YYYY-MM-DD')
  if (column.endsWith('_time')) return of(TimeString, 'a time HH:MM')
  if (column.endsWith('_at')) return of(Instant, 'an RFC 3339 instant')
  return undefined
}

/**
 * The longest plain text a cell may hold: the API's longest text field (a gig's notes, 5000). The
 * libreStage import cuts to the same limits, so a real band's data fits; a 100 MB title does not.
 */
export const MAX_IMPORTED_TEXT = 5000

export interface CellRule {
  name: string
  /** SQLite's declared type, upper case (INTEGER, TEXT, REAL, BLOB, NUMERIC). */
  type: string
  notNull: boolean
  enumValues?: readonly string[]
  json: boolean
  boolean: boolean
  shape?: TSchema
  format?: { pattern: RegExp; what: string }
}

interface DrizzleColumn {
  columnType: string
  enumValues?: readonly string[]
}

/** Drizzle's column modes by table and column name. */
const drizzleColumns = new Map<string, Map<string, DrizzleColumn>>(
  Object.values(schema)
    .filter((value) => is(value, SQLiteTable))
    .map((table) => {
      const config = getTableConfig(table as SQLiteTable)
      return [
        config.name,
        new Map(config.columns.map((c) => [c.name, c as unknown as DrizzleColumn]))
      ]
    })
)

/** The rule for each exported column of a table (live type, drizzle's modes). */
export function cellRules (table: string, columns: ColumnInfo[]): Map<string, CellRule> {
  const modes = drizzleColumns.get(table)
  return new Map(
    columns.map((c) => {
      const mode = modes?.get(c.name)
      const enumValues = mode?.enumValues?.length ? mode.enumValues : undefined
      const rule: CellRule = {
        name: c.name,
        type: c.type.toUpperCase(),
        notNull: c.notnull === 1 && c.pk === 0,
        enumValues,
        json: mode?.columnType === 'SQLiteTextJson',
        boolean: mode?.columnType === 'SQLiteBoolean',
        shape: JSON_SHAPES[`${table}.${c.name}`],
        format: formatOf(table, c.name)
      }
      return [c.name, rule]
    })
  )
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

/** A short, printable rendering of a bad value for the message. */
export const shown = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 40 ? `${text.slice(0, 37)}…` : text
}

/** What is wrong with `value` for this column, or null when it fits. */
export function cellProblem (table: string, rule: CellRule, value: unknown): string | null {
  if (value === null) return rule.notNull ? 'may not be empty (null)' : null
  if (rule.boolean) return value === 0 || value === 1 ? null : `${shown(value)} is not 0 or 1`
  switch (rule.type) {
    case 'INTEGER':
      return Number.isSafeInteger(value) ? null : `${shown(value)} is not an integer`
    case 'REAL':
    case 'NUMERIC':
      return typeof value === 'number' && Number.isFinite(value)
        ? null
        : `${shown(value)} is not a number`
    case 'BLOB':
      return typeof value === 'string' && BASE64.test(value)
        ? null
        : `${shown(value)} is not base64 data`
    default:
      if (typeof value !== 'string') return `${shown(value)} is not text`
      if (!rule.json && value.length > MAX_IMPORTED_TEXT) {
        return `${value.length} characters, at most ${MAX_IMPORTED_TEXT}`
      }
      if (rule.enumValues && !rule.enumValues.includes(value)) {
        return `${shown(value)} is not one of ${rule.enumValues.join(', ')}`
      }
      if (rule.format) return formatProblem(rule.format, value)
      return rule.json ? jsonProblem(table, rule, value) : null
  }
}

function formatProblem (format: NonNullable<CellRule['format']>, value: string): string | null {
  const fits = format.pattern.test(value) && (!/^\d{4}-/.test(value) || isRealLocalDateTime(value))
  return fits ? null : `${shown(value)} is not ${format.what}`
}

function jsonProblem (table: string, rule: CellRule, text: string): string | null {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return `${shown(text)} is not JSON`
  }
  if (table === 'app_settings' && rule.name === 'config') return configProblem(parsed)
  if (!rule.shape) return null
  const error = Value.Errors(rule.shape, parsed).First()
  return error ? `the JSON does not fit at ${error.path || '/'}: ${error.message}` : null
}

/** The app configuration field by field, as PATCH /admin/app_config checks it. */
function configProblem (parsed: unknown): string | null {
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return 'the app configuration is not a JSON object'
  }
  const problems: string[] = []
  const collect = (data: unknown, message?: string) => {
    const field = (data as { field?: string } | undefined)?.field
    const why = (message ?? String(data)).replace('stored app configuration: ', '')
    problems.push(field ? `${field} (${why})` : why)
  }
  readStoredConfig(parsed, { warn: collect, error: collect } as never)
  return problems.length ? `the app configuration is invalid: ${problems.join(', ')}` : null
}
