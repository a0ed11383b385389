import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorResponse, NoContent } from '#schemas/common.js'
import {
  Survey,
  SurveyCreate,
  SurveyDetail,
  SurveyIdParams,
  SurveyListQuery,
  SurveyResponseBody
} from '#schemas/surveys.js'
import { badRequest, conflict, forbidden, notFound } from '#src/errors.js'
import type { AuthUser } from '#plugins/app/session.js'
import {
  closeSurvey,
  createSurvey,
  deleteSurvey,
  findSurveyHeader,
  getSurveyDetail,
  listSurveys,
  replaceResponse
} from './repository.js'

const NotFound = { ...ErrorResponse, description: 'Survey not found' }
const Closed = { ...ErrorResponse, description: 'The survey is closed (SURVEY_CLOSED)' }

const surveyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const now = () => app.clock().toISOString()

  app.get(
    '/surveys',
    {
      config: { access: 'member' },
      schema: {
        tags: ['surveys'],
        summary: 'Surveys, newest first, with my response and the number of responses',
        querystring: SurveyListQuery,
        response: { 200: Type.Array(Survey) }
      }
    },
    async (request) => listSurveys(app.db, request.user.id, now(), request.query.status)
  )

  app.post(
    '/surveys',
    {
      config: { access: 'member' },
      schema: {
        tags: ['surveys'],
        summary: 'Start a poll or a date-finding survey (any member)',
        description:
          'Poll options need a `label` and no `at`; date options need `at` (local ' +
          'date-time) and take it as label when none is given.',
        body: SurveyCreate,
        response: { 201: SurveyDetail }
      }
    },
    async (request, reply) => {
      const body = request.body
      const stamp = app.clock()
      const options = body.options.map((option, i) => {
        if (body.kind === 'date') {
          if (!option.at) {
            throw badRequest('OPTION_NEEDS_AT', `options.${i}: a date survey option needs \`at\``)
          }
          return { label: option.label ?? option.at, at: option.at }
        }
        if (option.at) {
          throw badRequest('OPTION_AT_NOT_ALLOWED', `options.${i}: a poll option has no \`at\``)
        }
        if (!option.label?.trim()) {
          throw badRequest('OPTION_NEEDS_LABEL', `options.${i}: a poll option needs a label`)
        }
        return { label: option.label, at: null }
      })
      const keys = options.map((o) => (body.kind === 'date' ? o.at : o.label.trim().toLowerCase()))
      if (new Set(keys).size !== keys.length) {
        throw badRequest('DUPLICATE_OPTION', 'options must be distinct')
      }
      let closesAt: string | null = null
      if (body.closesAt) {
        const at = new Date(body.closesAt)
        if (at.getTime() <= stamp.getTime()) {
          throw badRequest('CLOSES_AT_IN_PAST', 'closesAt must be in the future')
        }
        closesAt = at.toISOString()
      }
      const id = createSurvey(
        app.db,
        {
          title: body.title,
          description: body.description ?? null,
          kind: body.kind,
          // A date survey asks about every date: several yes answers are its point.
          multipleChoice: body.kind === 'date' ? true : (body.multipleChoice ?? false),
          status: 'open',
          closesAt,
          createdBy: request.user.id,
          createdAt: stamp.toISOString(),
          updatedAt: stamp.toISOString()
        },
        options
      )
      const detail = getSurveyDetail(app.db, id, request.user.id, now())!
      app.notify(request.user.id, () => ({
        type: 'survey.opened',
        survey: { id, title: body.title, closesAt },
        by: detail.createdByName
      }))
      return reply.status(201).send(detail)
    }
  )

  app.get(
    '/surveys/:id',
    {
      config: { access: 'member' },
      schema: {
        tags: ['surveys'],
        summary: 'One survey with the results per option (counts and who answered what)',
        params: SurveyIdParams,
        response: { 200: SurveyDetail, 404: NotFound }
      }
    },
    async (request) => {
      const survey = getSurveyDetail(app.db, request.params.id, request.user.id, now())
      if (!survey) throw notFound('survey', request.params.id)
      return survey
    }
  )

  app.put(
    '/surveys/:id/response',
    {
      config: { access: 'member' },
      schema: {
        tags: ['surveys'],
        summary: 'Answer a survey; my new response replaces my previous one',
        description:
          'In a single-choice poll at most one answer may be `yes`. An option of ' +
          'another survey is a 400. Each answer may carry a comment (at most 200 characters; ' +
          'blank means none).',
        params: SurveyIdParams,
        body: SurveyResponseBody,
        response: { 200: SurveyDetail, 404: NotFound, 409: Closed }
      }
    },
    async (request) => {
      const { id } = request.params
      // A blank comment is no comment.
      const answers = request.body.answers.map((a) => ({
        optionId: a.optionId,
        value: a.value,
        comment: a.comment?.trim() || null
      }))
      if (new Set(answers.map((a) => a.optionId)).size !== answers.length) {
        throw badRequest('DUPLICATE_OPTION', 'each option may be answered once')
      }
      const outcome = replaceResponse(app.db, id, request.user.id, answers, now())
      if (outcome === 'not-found') throw notFound('survey', id)
      if (outcome === 'closed') throw conflict('SURVEY_CLOSED', `survey ${id} is closed`)
      if (outcome === 'single-choice') {
        throw badRequest('SINGLE_CHOICE', 'this poll allows only one yes')
      }
      if (typeof outcome === 'object') {
        throw badRequest(
          'UNKNOWN_OPTION',
          `option ${outcome.unknownOption} is not an option of survey ${id}`
        )
      }
      return getSurveyDetail(app.db, id, request.user.id, now())!
    }
  )

  const manageable = (id: number, user: AuthUser) => {
    const survey = findSurveyHeader(app.db, id)
    if (!survey) throw notFound('survey', id)
    if (survey.createdBy !== user.id && !app.hasRole(user, 'editor')) {
      throw forbidden('only the creator, an editor or an admin may do this')
    }
    return survey
  }

  app.post(
    '/surveys/:id/close',
    {
      config: { access: 'member' },
      schema: {
        tags: ['surveys'],
        summary:
          'Close a survey (creator, editor or admin); closing a closed survey changes nothing',
        params: SurveyIdParams,
        response: { 200: SurveyDetail, 404: NotFound }
      }
    },
    async (request) => {
      manageable(request.params.id, request.user)
      closeSurvey(app.db, request.params.id, now())
      return getSurveyDetail(app.db, request.params.id, request.user.id, now())!
    }
  )

  app.delete(
    '/surveys/:id',
    {
      config: { access: 'member' },
      schema: {
        tags: ['surveys'],
        summary: 'Delete a survey with its answers (creator, editor or admin)',
        params: SurveyIdParams,
        response: { 204: NoContent, 404: NotFound }
      }
    },
    async (request, reply) => {
      manageable(request.params.id, request.user)
      deleteSurvey(app.db, request.params.id)
      return reply.status(204).send(null)
    }
  )
}
export default surveyRoutes
