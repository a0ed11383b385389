import fp from 'fastify-plugin'
import { eq } from 'drizzle-orm'
import { Value } from '@sinclair/typebox/value'
import { appSettings } from '#src/db/schema.js'
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

export default fp(
  async (app) => {
    const load = (): EditableAppConfigType => {
      const row = app.db.select().from(appSettings).where(eq(appSettings.id, 1)).get()
      // Settings saved by an older version may lack newer fields: fill them from the defaults.
      const merged = {
        ...DEFAULT_APP_CONFIG,
        ...(row?.config as Partial<EditableAppConfigType> | undefined)
      }
      return Value.Check(EditableAppConfig, merged) ? merged : DEFAULT_APP_CONFIG
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
