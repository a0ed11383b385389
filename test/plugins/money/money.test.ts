import { test } from 'node:test'
import assert from 'node:assert/strict'
import XLSX from 'xlsx'
import {
  anonymous, createTestApp, json, userClient, type Client, type ErrorResponseBody, type Ok
} from '#test/helpers.js'
import { createGig } from '#test/gig-fixtures.js'
import { DEFAULT_APP_CONFIG } from '#schemas/app-config.js'
import { gigMoney } from '#src/db/schema.js'
import { pdfText } from '#test/pdf-tools.js'
import { pdfFile, upload } from '#test/file-fixtures.js'

type Money = Ok<'/gigs/{id}/money', 'get'>

const fee = (amountCents: number, extra: Record<string, unknown> = {}) => ({
  amountCents,
  currency: 'EUR',
  paid: false,
  paidAt: null,
  receivedBy: null,
  invoiceNumber: null,
  ...extra
})
const noRules = { players: null, fixed: [], percentages: [] }

async function band () {
  const ctx = await createTestApp()
  const admin = await userClient(ctx.app, 'ada', 'admin')
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const mia = await userClient(ctx.app, 'mia')
  const tom = await userClient(ctx.app, 'tom')
  const gig = await createGig(editor, { name: 'Wedding', date: '2026-06-20' })
  return { ctx, admin, editor, mia, tom, gig, url: `/gigs/${gig.id}/money` }
}

const yes = (member: Client, gigId: number) =>
  member.put(`/gigs/${gigId}/availability`, { status: 'yes' })

test('a gig without money reads as zero at version 0; editors save, the yes players share',
  async (t) => {
    const { ctx, editor, mia, tom, admin, gig, url } = await band()
    t.after(() => ctx.close())
    const empty = json<Money>(await editor.get(url))
    assert.equal(empty.version, 0)
    assert.equal(empty.view, 'full')
    assert.deepEqual(empty.totals, {
      feeCents: 0, expensesCents: 0, netCents: 0, currency: 'EUR', paid: false
    })
    await yes(mia, gig.id)
    await yes(tom, gig.id)
    await yes(editor, gig.id)
    await admin.put(`/gigs/${gig.id}/availability`, { status: 'no' })
    const saved = await editor.put(url, {
      version: 0,
      fee: fee(150000, { invoiceNumber: 'R-2026-17' }),
      expenses: [{ paidBy: { userId: mia.user.id }, title: 'PA hire', amountCents: 30001 }],
      rules: { ...noRules, percentages: [{ to: { name: 'Band fund' }, percent: 10 }] }
    })
    assert.equal(saved.statusCode, 200, saved.body)
    const money = json<Money>(saved)
    assert.equal(money.version, 1)
    assert.equal(money.totals.netCents, 119999)
    assert.equal(money.fee?.invoiceNumber, 'R-2026-17')
    // 10 % of 1199.99 is 119.999: 119.99 for the fund, the cent left goes to the players.
    assert.deepEqual(money.distribution, [
      { to: { name: 'Band fund' }, amountCents: 11999 },
      { to: { userId: editor.user.id }, amountCents: 36000 },
      { to: { userId: mia.user.id }, amountCents: 36000 },
      { to: { userId: tom.user.id }, amountCents: 36000 }
    ])
    assert.equal(money.unassignedCents, 0)
    // Members see their own share and the totals only.
    const mine = json<Money>(await mia.get(url))
    assert.equal(mine.view, 'own')
    assert.equal(mine.myShareCents, 36000)
    assert.equal(mine.totals.feeCents, 150000)
    assert.equal(mine.expenses, undefined)
    assert.equal(mine.distribution, undefined)
    // A member who said no has no share.
    assert.equal(json<Money>(await admin.get(url)).myShareCents, 0)
  })

test('gig money: 401, 403, 404, and every bad body is a 400 that stores nothing', async (t) => {
  const { ctx, editor, mia, gig, url } = await band()
  t.after(() => ctx.close())
  const body = { version: 0, fee: fee(1000), expenses: [], rules: noRules }
  assert.equal((await anonymous(ctx.app).get(url)).statusCode, 401)
  assert.equal((await anonymous(ctx.app).put(url, body)).statusCode, 401)
  assert.equal((await mia.put(url, body)).statusCode, 403)
  const missing = await editor.get('/gigs/999999/money')
  assert.equal(missing.statusCode, 404)
  assert.equal(json<ErrorResponseBody>(missing).code, 'GIG_NOT_FOUND')
  assert.equal((await editor.put('/gigs/999999/money', body)).statusCode, 404)
  const rules = (part: Record<string, unknown>) => ({ ...body, rules: { ...noRules, ...part } })
  const percentages = (...percent: number[]) =>
    rules({ percentages: percent.map((p, i) => ({ to: { name: `P${i}` }, percent: p })) })
  const expense = (paidBy: unknown, title = 'Fuel') =>
    ({ ...body, expenses: [{ paidBy, title, amountCents: 1 }] })
  const paidTo = (receivedBy: unknown) =>
    ({ ...body, fee: fee(100, { paid: true, receivedBy }) })
  const bad: Array<[unknown, string]> = [
    [{ ...body, fee: fee(-1) }, 'VALIDATION_ERROR'],
    [{ ...body, fee: fee(10.5) }, 'VALIDATION_ERROR'],
    [{ ...body, fee: { ...fee(100), currency: 'USD' } }, 'CURRENCY_MISMATCH'],
    [paidTo(null), 'MONEY_RULES_INVALID'],
    [percentages(60, 41), 'MONEY_RULES_INVALID'],
    [percentages(10.123), 'MONEY_RULES_INVALID'],
    [rules({ fixed: [{ to: { name: 'Van' }, amountCents: 1001 }] }), 'MONEY_RULES_INVALID'],
    [rules({ players: [999] }), 'UNKNOWN_USER'],
    [expense({ userId: 998 }), 'UNKNOWN_USER'],
    [paidTo({ userId: 1, name: 'x' }), 'VALIDATION_ERROR'],
    [paidTo({}), 'VALIDATION_ERROR'],
    [expense(null, ''), 'VALIDATION_ERROR']
  ]
  for (const [payload, code] of bad) {
    const response = await editor.put(url, payload)
    assert.equal(response.statusCode, 400, JSON.stringify(payload))
    const error = json<ErrorResponseBody>(response)
    assert.equal(error.code, code, JSON.stringify(payload))
    assert.ok(error.message.length > 0)
  }
  assert.equal(ctx.app.db.select().from(gigMoney).all().length, 0, 'nothing half-written')
  assert.equal(json<Money>(await editor.get(url)).version, 0)
  assert.ok(gig.id)
})

test('concurrent edits: a stale version is 409 with what is stored', async (t) => {
  const { ctx, editor, admin, url } = await band()
  t.after(() => ctx.close())
  const body = { version: 0, fee: fee(1000), expenses: [], rules: noRules }
  assert.equal((await editor.put(url, body)).statusCode, 200)
  const stale = await admin.put(url, { ...body, fee: fee(2000) })
  assert.equal(stale.statusCode, 409)
  const conflict = json<{ code: string, current: Money }>(stale)
  assert.equal(conflict.code, 'MONEY_VERSION_CONFLICT')
  assert.equal(conflict.current.version, 1)
  assert.equal(conflict.current.totals.feeCents, 1000)
  assert.equal((await admin.put(url, { ...body, version: 1, fee: fee(2000) })).statusCode, 200)
  assert.equal(json<Money>(await editor.get(url)).totals.feeCents, 2000)
})

test('deleting a gig with money asks for withMoney=true; money is never silently lost',
  async (t) => {
    const { ctx, editor, gig, url } = await band()
    t.after(() => ctx.close())
    await editor.put(url, { version: 0, fee: fee(0), expenses: [], rules: noRules })
    const other = await createGig(editor, { name: 'Club' })
    // A row of zeros is no money.
    assert.equal((await editor.delete(`/gigs/${other.id}`)).statusCode, 204)
    await editor.put(url, { version: 1, fee: fee(5000), expenses: [], rules: noRules })
    const refused = await editor.delete(`/gigs/${gig.id}`)
    assert.equal(refused.statusCode, 409)
    assert.equal(json<ErrorResponseBody>(refused).code, 'GIG_HAS_MONEY')
    assert.equal((await editor.get(`/gigs/${gig.id}`)).statusCode, 200)
    assert.equal((await editor.delete(`/gigs/${gig.id}?withMoney=true`)).statusCode, 204)
    assert.equal(ctx.app.db.select().from(gigMoney).all().length, 0)
    assert.equal((await editor.delete('/gigs/999999?withMoney=true')).statusCode, 404)
  })

test('the band decides what members see: nothing (403), own, or everything', async (t) => {
  const { ctx, admin, editor, mia, url } = await band()
  t.after(() => ctx.close())
  await editor.put(url, { version: 0, fee: fee(1000), expenses: [], rules: noRules })
  const config = { ...DEFAULT_APP_CONFIG, timezone: 'UTC' }
  const set = async (membersSee: string, currency = 'EUR') => {
    const response = await admin.put('/admin/app_config',
      { ...config, money: { currency, membersSee } })
    assert.equal(response.statusCode, 200, response.body)
  }
  await set('nothing')
  assert.equal((await mia.get(url)).statusCode, 403)
  assert.equal((await mia.get('/money/balances')).statusCode, 403)
  assert.equal(json<Money>(await editor.get(url)).view, 'full')
  await set('everything')
  assert.equal(json<Money>(await mia.get(url)).view, 'full')
  // A configuration saved without the money settings keeps them.
  assert.equal((await admin.put('/admin/app_config', config)).statusCode, 200)
  const shown = json<Ok<'/public/app_config', 'get'>>(await mia.get('/public/app_config'))
  assert.deepEqual(shown.money, { currency: 'EUR', membersSee: 'everything' })
  await set('own', 'CHF')
  const put = await editor.put(url, { version: 1, fee: fee(1000), expenses: [], rules: noRules })
  assert.equal(json<ErrorResponseBody>(put).code, 'CURRENCY_MISMATCH')
  assert.match(json<ErrorResponseBody>(put).message, /CHF/)
})

test('balances: who owes whom across paid gigs, settled by payments', async (t) => {
  const { ctx, editor, mia, tom, gig, url } = await band()
  t.after(() => ctx.close())
  // Gig 1: 900.00 received by Eddie; Mia paid 60.00 fuel; 10 % to the band fund; three play.
  await editor.put(url, {
    version: 0,
    fee: fee(90000, { paid: true, paidAt: '2026-06-21', receivedBy: { userId: editor.user.id } }),
    expenses: [{ paidBy: { userId: mia.user.id }, title: 'Fuel', amountCents: 6000 }],
    rules: {
      players: [editor.user.id, mia.user.id, tom.user.id],
      fixed: [],
      percentages: [{ to: { name: 'Band fund' }, percent: 10 }]
    }
  })
  // Gig 2: not paid yet: owes nothing.
  const club = await createGig(editor, { name: 'Club', date: '2026-07-01' })
  await editor.put(`/gigs/${club.id}/money`, {
    version: 0, fee: fee(50000), expenses: [], rules: { ...noRules, players: [tom.user.id] }
  })
  // Net 840.00: fund 84.00, 252.00 each. Eddie holds 900.00 and is owed 252.00: −648.00.
  // Mia: 60.00 + 252.00 = 312.00. Tom 252.00. Fund 84.00.
  const balances = json<Ok<'/money/balances', 'get'>>(await editor.get('/money/balances'))
  const byParty = Object.fromEntries(balances.balances.map((b) =>
    [b.userId ?? b.name, b.amountCents]))
  assert.deepEqual(byParty, {
    [editor.user.id]: -64800,
    [mia.user.id]: 31200,
    [tom.user.id]: 25200,
    'Band fund': 8400
  })
  assert.deepEqual(balances.transfers, [
    { from: { userId: editor.user.id }, to: { userId: mia.user.id }, amountCents: 31200 },
    { from: { userId: editor.user.id }, to: { userId: tom.user.id }, amountCents: 25200 },
    { from: { userId: editor.user.id }, to: { name: 'Band fund' }, amountCents: 8400 }
  ])
  // A member sees only their own line and transfers.
  const own = json<Ok<'/money/balances', 'get'>>(await mia.get('/money/balances'))
  assert.deepEqual(own.balances, [{ userId: mia.user.id, amountCents: 31200 }])
  assert.equal(own.transfers.length, 1)

  // Eddie pays Mia: settled.
  const paid = await editor.post('/money/payments', {
    from: { userId: editor.user.id }, to: { userId: mia.user.id }, amountCents: 31200
  })
  assert.equal(paid.statusCode, 201, paid.body)
  const payment = json<Ok<'/money/payments', 'post', 201>>(paid)
  assert.match(payment.paidOn, /^\d{4}-\d{2}-\d{2}$/)
  const after = json<Ok<'/money/balances', 'get'>>(await editor.get('/money/balances'))
  assert.equal(after.balances.find((b) => b.userId === mia.user.id), undefined)
  assert.equal(after.transfers.length, 2)
  assert.equal(json<unknown[]>(await editor.get('/money/payments')).length, 1)

  // Payments: bad input, roles, a mistake deleted.
  assert.equal((await mia.post('/money/payments', {
    from: { userId: mia.user.id }, to: { name: 'Band fund' }, amountCents: 1
  })).statusCode, 403)
  assert.equal((await anonymous(ctx.app).get('/money/balances')).statusCode, 401)
  for (const [body, code] of [
    [{ from: { userId: mia.user.id }, to: { userId: mia.user.id }, amountCents: 5 },
      'MONEY_RULES_INVALID'],
    [{ from: { name: 'Fund' }, to: { userId: 4242 }, amountCents: 5 }, 'UNKNOWN_USER'],
    [{ from: { name: 'Fund' }, to: { name: 'Van' }, amountCents: 0 }, 'VALIDATION_ERROR']
  ] as const) {
    const response = await editor.post('/money/payments', body)
    assert.equal(response.statusCode, 400)
    assert.equal(json<ErrorResponseBody>(response).code, code)
  }
  assert.equal((await editor.delete(`/money/payments/${payment.id}`)).statusCode, 204)
  const gone = await editor.delete(`/money/payments/${payment.id}`)
  assert.equal(gone.statusCode, 404)
  assert.equal(json<ErrorResponseBody>(gone).code, 'PAYMENT_NOT_FOUND')
  assert.ok(gig.id)
})

test("a season's figures: JSON, the workbook's cells and the CSV", async (t) => {
  const { ctx, editor, mia, tom, url } = await band()
  t.after(() => ctx.close())
  await editor.put(url, {
    version: 0,
    fee: fee(100000, { paid: true, paidAt: '2026-06-21', receivedBy: { userId: editor.user.id } }),
    expenses: [{ paidBy: { userId: tom.user.id }, title: 'Strings', amountCents: 2000 }],
    rules: { ...noRules, players: [mia.user.id, tom.user.id] }
  })
  const later = await createGig(editor, { name: 'Autumn fair', date: '2026-10-03' })
  await editor.put(`/gigs/${later.id}/money`, {
    version: 0,
    fee: fee(40001),
    expenses: [],
    rules: { ...noRules, players: [mia.user.id, tom.user.id] }
  })
  const other = await createGig(editor, { name: 'Next year', date: '2027-01-10' })
  await editor.put(`/gigs/${other.id}/money`, {
    version: 0, fee: fee(99), expenses: [], rules: noRules
  })
  const season = json<Ok<'/money/seasons/{year}', 'get'>>(await editor.get('/money/seasons/2026'))
  assert.deepEqual(season.totals, {
    incomeCents: 140001, expensesCents: 2000, netCents: 138001, openCents: 40001
  })
  assert.deepEqual(season.gigs.map((g) => g.name), ['Wedding', 'Autumn fair'])
  const tomRow = season.members.find((m) => m.userId === tom.user.id)!
  assert.deepEqual(tomRow, {
    userId: tom.user.id,
    name: 'Tom',
    sharesCents: 69000,
    incomeCents: 49000,
    openCents: 20000,
    expensesCents: 2000
  })
  assert.equal(season.members.find((m) => m.userId === mia.user.id)!.sharesCents, 69001)
  assert.equal((await mia.get('/money/seasons/2026')).statusCode, 403)
  assert.equal((await editor.get('/money/seasons/26')).statusCode, 400)

  const xlsx = await editor.get('/money/seasons/2026/figures.xlsx')
  assert.equal(xlsx.statusCode, 200)
  assert.match(String(xlsx.headers['content-disposition']), /money-2026\.xlsx/)
  const book = XLSX.read(xlsx.rawPayload, { type: 'buffer', cellNF: true })
  // The test band speaks German.
  assert.deepEqual(book.SheetNames, ['Mitglieder', 'Auftritte'])
  const members = book.Sheets.Mitglieder!
  const rows = XLSX.utils.sheet_to_json<Array<string | number>>(members, { header: 1 })
  assert.deepEqual(rows[0], ['Name', 'Anteile', 'Ausgezahlt', 'Offen', 'Ausgelegt'])
  const tomCells = rows.find((row) => row[0] === 'Tom')!
  assert.deepEqual(tomCells, ['Tom', 690, 490, 200, 20])
  const cell = members[XLSX.utils.encode_cell({ r: rows.indexOf(tomCells), c: 1 })]!
  assert.equal(cell.t, 'n', 'a number, not text')
  assert.equal(cell.f, undefined, 'no formula')
  assert.match(String(cell.z), /EUR/)

  const csvLines = async () => {
    const csv = await editor.get('/money/seasons/2026/figures.csv')
    assert.match(String(csv.headers['content-type']), /text\/csv/)
    return csv.body.replace(/^\uFEFF/, '').trim().split('\r\n')
  }
  const german = await csvLines()
  assert.equal(german[0], 'Name;Anteile;Ausgezahlt;Offen;Ausgelegt')
  assert.ok(german.includes('Tom;690,00;490,00;200,00;20,00'), german.join('\n'))
  const admin = await userClient(ctx.app, 'root', 'admin')
  await admin.put('/admin/app_config', { ...DEFAULT_APP_CONFIG, locale: 'en-GB' })
  const english = await csvLines()
  assert.equal(english[0], 'Name;Shares;Paid out;Open;Expenses laid out')
  assert.ok(english.includes('Tom;690.00;490.00;200.00;20.00'), english.join('\n'))
})

test("the organiser's running-order sheet carries the fee when asked, for those who may see it",
  async (t) => {
    const { ctx, editor, mia, admin, gig, url } = await band()
    t.after(() => ctx.close())
    await editor.put(url, {
      version: 0, fee: fee(125050, { invoiceNumber: 'R-2026-17' }), expenses: [], rules: noRules
    })
    const sheet = `/gigs/${gig.id}/schedule.pdf`
    const withFee = await editor.get(`${sheet}?fee=true`)
    assert.equal(withFee.statusCode, 200)
    const text = pdfText(withFee.rawPayload)
    assert.match(text, /Gage\s+1\.250,50\s€ · R-2026-17/)
    const plain = pdfText((await editor.get(sheet)).rawPayload)
    assert.doesNotMatch(plain, /Gage|1\.250,50/)
    const refused = await mia.get(`${sheet}?fee=true`)
    assert.equal(refused.statusCode, 403)
    assert.equal((await mia.get(sheet)).statusCode, 200)
    await admin.put('/admin/app_config',
      { ...DEFAULT_APP_CONFIG, money: { currency: 'EUR', membersSee: 'everything' } })
    assert.equal((await mia.get(`${sheet}?fee=true`)).statusCode, 200)
    // A gig without money prints a dash.
    const other = await createGig(editor, { name: 'Club' })
    const dash = pdfText((await editor.get(`/gigs/${other.id}/schedule.pdf?fee=true`)).rawPayload)
    assert.match(dash, /Gage\s+–/)
  })

test("an expense's receipt is a file of the gig; another file is 400 and stores nothing",
  async (t) => {
    const { ctx, editor, gig, url } = await band()
    t.after(() => ctx.close())
    const uploaded = await upload(editor, `/gigs/${gig.id}/files`, pdfFile('PA hire invoice'),
      { title: 'PA invoice', kind: 'document', filename: 'pa.pdf' })
    assert.equal(uploaded.statusCode, 201, uploaded.body)
    const receipt = json<{ id: number }>(uploaded).id
    const other = await createGig(editor, { name: 'Club' })
    const elsewhere = json<{ id: number }>(await upload(editor, `/gigs/${other.id}/files`,
      pdfFile('Club invoice'), { title: 'Club', kind: 'document', filename: 'club.pdf' })).id
    const body = (receiptFileId: number | null) => ({
      version: 0,
      fee: fee(50000),
      expenses: [{ paidBy: null, title: 'PA hire', amountCents: 12000, receiptFileId }],
      rules: noRules
    })
    for (const id of [elsewhere, 999999]) {
      const refused = await editor.put(url, body(id))
      assert.equal(refused.statusCode, 400)
      assert.equal(json<ErrorResponseBody>(refused).code, 'UNKNOWN_FILE')
    }
    assert.equal(ctx.app.db.select().from(gigMoney).all().length, 0)
    const saved = await editor.put(url, body(receipt))
    assert.equal(saved.statusCode, 200, saved.body)
    assert.equal(json<Money>(saved).expenses?.[0]?.receiptFileId, receipt)
    const none = await editor.put(url, { ...body(null), version: 1 })
    assert.equal(json<Money>(none).expenses?.[0]?.receiptFileId, undefined)
  })
