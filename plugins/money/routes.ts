import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorResponse, IdParams } from '#schemas/common.js'
import { GigMoney, GigMoneyPut, MoneyConflict } from '#schemas/money.js'
import { DEFAULT_MONEY_CONFIG } from '#schemas/app-config.js'
import { badRequest, errorBody, forbidden, notFound } from '#src/errors.js'
import { findGig } from '#src/repositories/gigs.js'
import { distribute, MoneyRuleError } from '#shared/money.js'
import { findMoney, MoneyVersionConflict, rulesOf, saveMoney, yesPlayers } from './repository.js'
import { moneyView } from './view.js'
import balanceRoutes from './balance-routes.js'

const NotFound = { ...ErrorResponse, description: 'Unknown gig' }

/** A gig's fee, expenses and split (GET/PUT /gigs/{id}/money), then the band's balances. */
const moneyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const config = () => app.appSettings.get().money ?? DEFAULT_MONEY_CONFIG

  const view = (gigId: number, userId: number, full: boolean) => moneyView(gigId,
    findMoney(app.db, gigId), yesPlayers(app.db, [gigId]).get(gigId) ?? [], { userId, full },
    config())

  app.get(
    '/gigs/:id/money',
    {
      config: { access: 'member' },
      schema: {
        tags: ['money'],
        summary: "A gig's fee, expenses and shares",
        description: 'Editors and admins get everything (`view: full`). Members get what the ' +
          "band's configuration `money.membersSee` allows: their own share and the gig's " +
          'totals (`own`, the default), everything, or nothing (403).',
        params: IdParams,
        response: { 200: GigMoney, 404: NotFound }
      }
    },
    async (request) => {
      const gigId = request.params.id
      const editor = app.hasRole(request.user, 'editor')
      const membersSee = config().membersSee
      if (!editor && membersSee === 'nothing') {
        throw forbidden("this band shows a gig's money to editors only")
      }
      if (!findGig(app.db, gigId)) throw notFound('gig', gigId)
      return view(gigId, request.user.id, editor || membersSee === 'everything')
    }
  )

  app.put(
    '/gigs/:id/money',
    {
      config: { access: 'editor' },
      schema: {
        tags: ['money'],
        summary: "Replace a gig's money as a whole (send the version it is based on)",
        description: 'Amounts are integer cents in the band\'s currency (else 400 ' +
          'CURRENCY_MISMATCH). Percentages are of the net (fee less expenses), fixed amounts ' +
          'come next, the rest is split equally among `players` (null: the members who ' +
          'answered yes), the cents of rounding to the first of them. Shares over 100 % or ' +
          'over the net, a paid fee without `receivedBy` and unknown members are 400 and ' +
          'change nothing; a stale `version` is 409 with the stored money in `current`.',
        params: IdParams,
        body: GigMoneyPut,
        response: { 200: GigMoney, 404: NotFound, 409: MoneyConflict }
      }
    },
    async (request, reply) => {
      const gigId = request.params.id
      const body = request.body
      const { currency } = config()
      if (!findGig(app.db, gigId)) throw notFound('gig', gigId)
      if (body.fee.currency !== currency) {
        throw badRequest('CURRENCY_MISMATCH',
          `the band counts in ${currency}, the fee is in ${body.fee.currency}`)
      }
      if (body.fee.paid && !body.fee.receivedBy) {
        throw badRequest('MONEY_RULES_INVALID', 'a paid fee needs receivedBy: who holds it')
      }
      const rules = rulesOf(body.rules)
      try {
        // The split is checked before anything is stored: the players stand for any count.
        distribute(body.fee.amountCents, body.expenses.map((e) => e.amountCents), rules, [])
      } catch (error) {
        if (error instanceof MoneyRuleError) throw badRequest('MONEY_RULES_INVALID', error.message)
        throw error
      }
      try {
        saveMoney(app.db, gigId, body, rules, app.clock().toISOString())
      } catch (error) {
        if (!(error instanceof MoneyVersionConflict)) throw error
        const current = view(gigId, request.user.id, true)
        return reply.status(409).send({
          ...errorBody('MONEY_VERSION_CONFLICT',
            `the gig's money is at version ${current.version}, not ${body.version}`),
          code: 'MONEY_VERSION_CONFLICT' as const,
          statusCode: 409 as const,
          current
        })
      }
      return view(gigId, request.user.id, true)
    }
  )

  await app.register(balanceRoutes)
}
export default moneyRoutes
