import fp from 'fastify-plugin'
import type { EditableAppConfigType } from '#schemas/app-config.js'
import { loadAppConfig, saveAppConfig } from '#src/repositories/app-settings.js'

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
    let cached = loadAppConfig(app.db, app.log)
    app.decorate('appSettings', {
      get: () => cached,
      set (config: EditableAppConfigType) {
        saveAppConfig(app.db, config, app.clock())
        cached = config
        return cached
      }
    })
  },
  { name: 'app-settings', fastify: '5.x', dependencies: ['db', 'clock'] }
)
