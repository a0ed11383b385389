import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { and, count, eq, isNotNull, ne, sql } from '#src/db/orm.js'
import { Singer } from '#schemas/stats.js'
import { songs, users } from '#src/db/schema.js'

/**
 * GET /singers: the names a lead-singer picker offers, the band's active singers and anyone else
 * named as lead singer of a song (guests), with how many songs each leads. Two statements.
 */
const singerRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/singers',
    {
      config: { access: 'member' },
      schema: {
        tags: ['users'],
        summary: 'Lead singers for pickers: active singers of the band, then guests named on songs',
        description:
          'Songs match a singer by name, ignoring case. Sorted by name (band locale).',
        response: { 200: Type.Array(Singer) }
      }
    },
    async () => {
      const members = app.db
        .select({ userId: users.id, name: users.displayName })
        .from(users)
        .where(and(eq(users.isSinger, true), eq(users.status, 'active')))
        .all()
      const named = app.db
        .select({ name: sql<string>`min(trim(${songs.leadSinger}))`, songCount: count() })
        .from(songs)
        .where(and(isNotNull(songs.leadSinger), ne(songs.status, 'retired')))
        .groupBy(sql`lower(trim(${songs.leadSinger}))`)
        .all()
        .filter((row) => row.name !== '')
      const key = (name: string) => name.trim().toLowerCase()
      const counts = new Map(named.map((row) => [key(row.name), row]))
      const singers = [
        ...members.map((m) => ({ ...m, songCount: counts.get(key(m.name))?.songCount ?? 0 })),
        ...named
          .filter((row) => !members.some((m) => key(m.name) === key(row.name)))
          .map((row) => ({ userId: null, ...row }))
      ]
      const collator = new Intl.Collator(app.appSettings.get().locale, { sensitivity: 'base' })
      return singers.sort((a, b) => collator.compare(a.name, b.name))
    }
  )
}
export default singerRoutes
