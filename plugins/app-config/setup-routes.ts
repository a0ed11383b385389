import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { count } from '#src/db/orm.js'
import {
  SetupChecklist,
  SetupChecklistPut,
  firstRunAppConfig,
  type SetupChecklistType
} from '#schemas/app-config.js'
import { gigs, songs, users } from '#src/db/schema.js'
import { INITIAL_PASSWORD_FILE } from '#src/bootstrap.js'
import { hasLogo } from './repository.js'

/**
 * The admin's setup checklist: which first-evening steps are done, computed from what
 * the band has, and whether it was dismissed (kept in the app configuration: one band, one
 * checklist, whichever admin ticks it away).
 */
const setupRoutes: FastifyPluginAsyncTypebox<{ dataDir: string, backups: boolean }> = async (
  app,
  options
) => {
  /** `overHttps`: offline copies, installing and the wake lock need a secure context. */
  const checklist = (overHttps: boolean): SetupChecklistType => {
    const settings = app.appSettings.get()
    const howMany = (table: typeof users | typeof songs | typeof gigs) =>
      app.db.select({ n: count() }).from(table).get()?.n ?? 0
    const defaultNames = [firstRunAppConfig('en').bandName, firstRunAppConfig('de').bandName]
    const done = {
      band: hasLogo(app.db) || !defaultNames.includes(settings.bandName),
      language: settings.setup?.localeChosen ?? true,
      // The generated first password is forgotten when the admin changes it (src/bootstrap.ts).
      password: !existsSync(join(options.dataDir, INITIAL_PASSWORD_FILE)),
      members: howMany(users) > 1,
      songs: howMany(songs) > 0,
      gig: howMany(gigs) > 0,
      https: overHttps,
      backups: options.backups
    }
    return {
      dismissed: settings.setup?.checklistDismissed ?? true,
      steps: Object.entries(done).map(([id, isDone]) => ({
        id: id as keyof typeof done,
        done: isDone
      }))
    }
  }

  app.get(
    '/admin/setup',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['config'],
        summary: 'The setup checklist (admin): the first-evening steps and which are done',
        response: { 200: SetupChecklist }
      }
    },
    async (request) => checklist(request.protocol === 'https')
  )

  app.put(
    '/admin/setup',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['config'],
        summary: 'Dismiss the setup checklist, or show it again (admin)',
        body: SetupChecklistPut,
        response: { 200: SetupChecklist }
      }
    },
    async (request) => {
      const current = app.appSettings.get()
      app.appSettings.set({
        ...current,
        setup: {
          localeChosen: current.setup?.localeChosen ?? true,
          checklistDismissed: request.body.dismissed
        }
      })
      return checklist(request.protocol === 'https')
    }
  )
}

export default setupRoutes
