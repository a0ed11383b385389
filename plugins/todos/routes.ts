import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Todos } from '#schemas/todos.js'
import { todayIn } from '#shared/local-time.js'
import { loadTodos } from './repository.js'

/** GET /me/todos: five statements, whatever the size of the band's history. */
const todoRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/me/todos',
    {
      config: { access: 'member' },
      schema: {
        tags: ['sessions'],
        summary:
          'What I still owe the band: survey answers, song votes, availability, checklist items',
        response: { 200: Todos }
      }
    },
    async (request) => {
      const now = app.clock()
      const today = todayIn(app.appSettings.get().timezone, now)
      return loadTodos(app.db, request.user.id, now, today)
    }
  )
}
export default todoRoutes
