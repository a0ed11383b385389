import fp from 'fastify-plugin'
import { eq } from 'drizzle-orm'
import { TypeGuard, type TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import type { FastifyBaseLogger } from 'fastify'
import { appSettings } from '#src/db/schema.js'
import { isValidTimeZone } from '#src/services/local-time.js'
import {
  DEFAULT_APP_CONFIG,
  EditableAppConfig,
  type EditableAppConfigType
} from '#schemas/app-config.js'

declare module 'fastify' {
  interface FastifyInstance {
    appSettings: {
      /** The current configuration (cached; every resource reads it, only admins change it). */
      get(): EditableAppConfigType
      set(config: EditableAppConfigType): EditableAppConfigType
    }
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * The stored configuration, field by field. A field that is missing (saved by an older version)
 * takes its default; one that fails validation (edited in the database, or saved under other rules)
 * takes its default too and is logged, so one bad field never costs the band its other settings.
 */
export function readStoredConfig (stored: unknown, log: FastifyBaseLogger): EditableAppConfigType {
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

export default fp(
  async (app) => {
    const load = (): EditableAppConfigType => {
      const row = app.db.select().from(appSettings).where(eq(appSettings.id, 1)).get()
      return readStoredConfig(row?.config, app.log)
    }
    let cached = load()
    app.decorate('appSettings', {
      get: () => cached,
      set (config: EditableAppConfigType) {
        const now = app.clock().toISOString()
        app.db
          .insert(appSettings)
          .values({ id: 1, config, updatedAt: now })
          .onConflictDoUpdate({ target: appSettings.id, set: { config, updatedAt: now } })
          .run()
        cached = config
        return cached
      }
    })
  },
  { name: 'app-settings', fastify: '5.x', dependencies: ['db', 'clock'] }
)
