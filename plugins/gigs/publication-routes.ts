import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorResponse, IdParams } from '#schemas/common.js'
import { SetlistPublication, SetlistPublish } from '#schemas/setlists.js'
import { notFound } from '#src/errors.js'
import { findGig } from '#src/repositories/gigs.js'
import { loadPublication, publishSetlist } from './publication-repository.js'

const NotFound = { ...ErrorResponse, description: 'Unknown gig' }

/**
 * Publishing a setlist: the editor says "this is the setlist" (saving drafts says nothing), the
 * band's chat hears of it. A setlist saved after publishing shows `changedSince`; publishing
 * again announces an update.
 */
const publicationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const load = (id: number) => {
    const publication = loadPublication(app.db, id)
    if (!publication) throw notFound('gig', id)
    return publication
  }

  app.get(
    '/gigs/:id/setlist/publication',
    {
      config: { access: 'member' },
      schema: {
        tags: ['gigs'],
        summary: 'Whether, when and by whom the setlist was published, and if it changed since',
        params: IdParams,
        response: { 200: SetlistPublication, 404: NotFound }
      }
    },
    async (request) => load(request.params.id)
  )

  app.post(
    '/gigs/:id/setlist/publish',
    {
      config: { access: 'editor' },
      schema: {
        tags: ['gigs'],
        summary: 'Publish the setlist to the band (a chat notice when a webhook is configured)',
        description:
          '`version` must be the current setlist version (else 409 ' +
          'SETLIST_VERSION_CONFLICT); an empty setlist is 409 SETLIST_EMPTY. Publishing the ' +
          'version already published changes nothing and announces nothing.',
        params: IdParams,
        body: SetlistPublish,
        response: { 200: SetlistPublication, 404: NotFound, 409: ErrorResponse }
      }
    },
    async (request) => {
      const { id } = request.params
      const outcome = publishSetlist(app.db, id, request.body.version, request.user.id, app.clock())
      if (outcome) {
        const gig = findGig(app.db, id)!
        app.notify(request.user.id, () => ({ type: 'setlist.published', gig, ...outcome }))
      }
      return load(id)
    }
  )
}
export default publicationRoutes
