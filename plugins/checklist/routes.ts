import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorResponse, IdParams, NoContent } from '#schemas/common.js'
import {
  ChecklistItem,
  ChecklistItemCreate,
  ChecklistItemParams,
  ChecklistItemPatch
} from '#schemas/checklist.js'
import { forbidden, notFound } from '#src/errors.js'
import { findGig } from '#src/repositories/gigs.js'
import {
  createChecklistItem,
  deleteChecklistItem,
  findChecklistItem,
  listChecklist,
  patchChecklistItem
} from './repository.js'

const NotFound = { ...ErrorResponse, description: 'Unknown gig or checklist item' }
const Full = { ...ErrorResponse, description: 'The checklist is full (LIMIT_REACHED)' }

/**
 * A gig's to-do list: everyone reads it (also of past gigs), editors manage it, the assignee ticks
 * off their own item.
 */
const checklistRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const requireGig = (id: number) => {
    if (!findGig(app.db, id)) throw notFound('gig', id)
  }

  app.get(
    '/gigs/:id/checklist',
    {
      config: { access: 'member' },
      schema: {
        tags: ['gigs'],
        summary: "The gig's checklist in list order",
        params: IdParams,
        response: { 200: Type.Array(ChecklistItem), 404: NotFound }
      }
    },
    async (request) => {
      requireGig(request.params.id)
      return listChecklist(app.db, request.params.id)
    }
  )

  app.post(
    '/gigs/:id/checklist',
    {
      config: { access: 'editor' },
      schema: {
        tags: ['gigs'],
        summary: 'Add a checklist item (at `position`, default last)',
        params: IdParams,
        body: ChecklistItemCreate,
        response: { 201: ChecklistItem, 404: NotFound, 409: Full }
      }
    },
    async (request, reply) => {
      requireGig(request.params.id)
      const item = createChecklistItem(
        app.db,
        request.params.id,
        request.body,
        request.user.id,
        app.clock()
      )
      return reply.status(201).send(item)
    }
  )

  app.patch(
    '/gigs/:id/checklist/:itemId',
    {
      config: { access: 'member' },
      schema: {
        tags: ['gigs'],
        summary: 'Change a checklist item; the assignee may tick off (`done`) their own',
        description:
          'Editors change every field, `position` moves the item (the others stay dense). ' +
          'A member who is the assignee may send only `done`; anything else is 403.',
        params: ChecklistItemParams,
        body: ChecklistItemPatch,
        response: { 200: ChecklistItem, 404: NotFound }
      }
    },
    async (request) => {
      const { id, itemId } = request.params
      if (!app.hasRole(request.user, 'editor')) {
        const item = findChecklistItem(app.db, id, itemId)
        if (!item) throw notFound('checklist item', itemId)
        const onlyDone = Object.keys(request.body).every((key) => key === 'done')
        if (item.assigneeId !== request.user.id || !onlyDone) {
          throw forbidden('only editors change checklist items; the assignee may tick off theirs')
        }
      }
      const { body, user } = request
      const item = patchChecklistItem(app.db, id, itemId, body, user.id, app.clock())
      if (!item) throw notFound('checklist item', itemId)
      return item
    }
  )

  app.delete(
    '/gigs/:id/checklist/:itemId',
    {
      config: { access: 'editor' },
      schema: {
        tags: ['gigs'],
        summary: 'Delete a checklist item (the ones after it move up)',
        params: ChecklistItemParams,
        response: { 204: NoContent, 404: NotFound }
      }
    },
    async (request, reply) => {
      const { id, itemId } = request.params
      if (!deleteChecklistItem(app.db, id, itemId)) throw notFound('checklist item', itemId)
      return reply.status(204).send(null)
    }
  )
}
export default checklistRoutes
