import { eq } from '#src/db/orm.js'
import { TypeGuard, type TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import type { FastifyBaseLogger } from 'fastify'
import type { Db } from '#src/db/client.js'
import { appSettings } from '#src/db/schema.js'
import { isValidTimeZone } from '#shared/local-time.js'
import {
  DEFAULT_APP_CONFIG,
  EditableAppConfig,
  type EditableAppConfigType
} from '#schemas/app-config.js'

// The band's stored app configuration, shared by the app-settings plugin (which caches it) and the
// importers (which add the genres and gig kinds they bring along).

/** What reading the configuration may report: the Fastify logger, or a silent one. */
export type ConfigLog = Pick<FastifyBaseLogger, 'warn' | 'error'>

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * The stored configuration, field by field. A field that is missing (saved by an older version)
 * takes its default; one that fails validation (edited in the database, or saved under other rules)
 * takes its default too and is logged, so one bad field never costs the band its other settings.
 */
export function readStoredConfig (stored: unknown, log: ConfigLog): EditableAppConfigType {
  const pick = (schema: TSchema, value: unknown, fallback: unknown, path: string): unknown => {
    if (value === undefined) return fallback
    if (TypeGuard.IsObject(schema) && isRecord(value) && isRecord(fallback)) {
      const result: Record<string, unknown> = {}
      for (const [key, inner] of Object.entries(schema.properties)) {
        result[key] = pick(inner, value[key], fallback[key], path ? `${path}.${key}` : key)
      }
      for (const key of Object.keys(value)) {
        const field = path ? `${path}.${key}` : key
        if (!(key in schema.properties)) log.warn({ field }, 'stored app configuration: unknown')
      }
      return result
    }
    const valid = Value.Check(schema, value)
    if (valid && (path !== 'timezone' || isValidTimeZone(String(value)))) return value
    log.warn({ field: path }, 'stored app configuration: invalid value, the default is used')
    return fallback
  }
  const config = pick(EditableAppConfig, isRecord(stored) ? stored : {}, DEFAULT_APP_CONFIG, '')
  if (Value.Check(EditableAppConfig, config)) return config
  // Valid fields and valid defaults should make a valid whole; should a rule across fields ever
  // break that, the defaults are used.
  log.error('stored app configuration: invalid as a whole, the defaults are used')
  return DEFAULT_APP_CONFIG
}

/** The stored configuration (defaults when none was saved yet). */
export function loadAppConfig (db: Pick<Db, 'select'>, log: ConfigLog): EditableAppConfigType {
  const row = db.select().from(appSettings).where(eq(appSettings.id, 1)).get()
  return readStoredConfig(row?.config, log)
}

export function saveAppConfig (
  db: Pick<Db, 'insert'>,
  config: EditableAppConfigType,
  now: Date
): void {
  const stamp = now.toISOString()
  db.insert(appSettings)
    .values({ id: 1, config, updatedAt: stamp })
    .onConflictDoUpdate({ target: appSettings.id, set: { config, updatedAt: stamp } })
    .run()
}

/** Whether an admin (or the first start) ever saved a configuration. */
export function hasStoredConfig (db: Pick<Db, 'select'>): boolean {
  return db.select({ id: appSettings.id }).from(appSettings).where(eq(appSettings.id, 1)).get() !==
    undefined
}
