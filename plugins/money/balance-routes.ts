import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { ErrorResponse, IdParams, NoContent } from '#schemas/common.js'
import { Balances, Payment, PaymentPost, Season, SeasonParams } from '#schemas/money.js'
import { DEFAULT_MONEY_CONFIG } from '#schemas/app-config.js'
import { binaryFile, CSV_TYPE, textFile, XLSX_TYPE } from '#schemas/documents.js'
import { badRequest, forbidden, notFound } from '#src/errors.js'
import { contentDisposition } from '#src/http/content-disposition.js'
import { todayIn } from '#shared/local-time.js'
import { partyKey } from '#shared/money.js'
import {
  allMoney,
  deletePayment,
  insertPayment,
  listPayments,
  memberNames,
  moneyOfYear,
  toParty,
  yesPlayers
} from './repository.js'
import { balancesAnswer, balancesOf, seasonOf } from './view.js'
import { seasonCsv, seasonWorkbook } from './season-files.js'

const PaymentNotFound = { ...ErrorResponse, description: 'Unknown payment' }

/** Who owes whom across gigs, the payments that settle it, and a year's figures. */
const balanceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const config = () => app.appSettings.get().money ?? DEFAULT_MONEY_CONFIG
  const toPayment = (row: ReturnType<typeof listPayments>[number]) => ({
    id: row.id,
    from: row.fromParty,
    to: row.toParty,
    amountCents: row.amountCents,
    paidOn: row.paidOn,
    note: row.note,
    createdAt: row.createdAt
  })

  app.get(
    '/money/balances',
    {
      config: { access: 'member' },
      schema: {
        tags: ['money'],
        summary: 'Who owes whom across the paid gigs, and the transfers that settle it',
        description: 'Editors, and members where the band shows everything, see every balance; ' +
          'with `membersSee: own` a member sees their own balance and transfers.',
        response: { 200: Balances }
      }
    },
    async (request) => {
      const editor = app.hasRole(request.user, 'editor')
      const { membersSee, currency } = config()
      if (!editor && membersSee === 'nothing') throw forbidden('balances are for editors only')
      const rows = allMoney(app.db)
      const balances = balancesOf(rows, yesPlayers(app.db, rows.map((r) => r.gigId)),
        listPayments(app.db))
      const full = editor || membersSee === 'everything'
      return balancesAnswer(balances, currency, full ? undefined : request.user.id)
    }
  )

  app.get(
    '/money/payments',
    {
      config: { access: 'editor' },
      schema: {
        tags: ['money'],
        summary: 'The payments recorded to settle balances (oldest first)',
        response: { 200: Type.Array(Payment) }
      }
    },
    async () => listPayments(app.db).map(toPayment)
  )

  app.post(
    '/money/payments',
    {
      config: { access: 'editor' },
      schema: {
        tags: ['money'],
        summary: 'Record that one party paid another (settles balances)',
        description: 'A party is a member (`userId`) or a named party (`name`). `paidOn` ' +
          "defaults to today in the band's timezone.",
        body: PaymentPost,
        response: { 201: Payment }
      }
    },
    async (request, reply) => {
      const body = request.body
      if (partyKey(toParty(body.from)) === partyKey(toParty(body.to))) {
        throw badRequest('MONEY_RULES_INVALID', 'a payment from a party to itself')
      }
      const now = app.clock()
      const paidOn = body.paidOn ?? todayIn(app.appSettings.get().timezone, now)
      const row = insertPayment(app.db, body, paidOn, request.user.id, now.toISOString())
      return reply.status(201).send(toPayment(row))
    }
  )

  app.delete(
    '/money/payments/:id',
    {
      config: { access: 'editor' },
      schema: {
        tags: ['money'],
        summary: 'Delete a payment recorded by mistake',
        params: IdParams,
        response: { 204: NoContent, 404: PaymentNotFound }
      }
    },
    async (request, reply) => {
      if (!deletePayment(app.db, request.params.id)) throw notFound('payment', request.params.id)
      return reply.status(204).send(null)
    }
  )

  const season = (year: number) => {
    const rows = moneyOfYear(app.db, year)
    return seasonOf(year, config().currency, rows,
      yesPlayers(app.db, rows.map((r) => r.money.gigId)), memberNames(app.db))
  }

  app.get(
    '/money/seasons/:year',
    {
      config: { access: 'editor' },
      schema: {
        tags: ['money'],
        summary: "A year's figures: totals, each party's shares, income, open shares, outlays",
        params: SeasonParams,
        response: { 200: Season }
      }
    },
    async (request) => season(request.params.year)
  )

  app.get(
    '/money/seasons/:year/figures.xlsx',
    {
      config: { access: 'editor' },
      schema: {
        tags: ['money'],
        summary: "A year's figures as a workbook (amounts as numbers in the currency's format)",
        params: SeasonParams,
        response: { 200: binaryFile(XLSX_TYPE, 'Excel workbook (.xlsx)') }
      }
    },
    async (request, reply) => {
      const figures = season(request.params.year)
      const body = seasonWorkbook(figures, app.appSettings.get().locale)
      return reply
        .type(XLSX_TYPE)
        .header('content-disposition',
          contentDisposition('attachment', `money-${figures.year}.xlsx`))
        .send(body)
    }
  )

  app.get(
    '/money/seasons/:year/figures.csv',
    {
      config: { access: 'editor' },
      schema: {
        tags: ['money'],
        summary: "A year's figures per party as CSV (amounts with two decimals)",
        params: SeasonParams,
        response: { 200: textFile(CSV_TYPE, 'CSV (UTF-8 with BOM, `;`)') }
      }
    },
    async (request, reply) => {
      const figures = season(request.params.year)
      return reply
        .type(CSV_TYPE)
        .header('content-disposition',
          contentDisposition('attachment', `money-${figures.year}.csv`))
        .send(seasonCsv(figures, app.appSettings.get().locale))
    }
  )
}
export default balanceRoutes
