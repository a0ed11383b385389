// The generated first admin password (written to the log and a file) must be replaced first, and
// its file goes whenever that admin's password changes, whoever changes it.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { eq } from '#src/db/orm.js'
import {
  anonymous, createTestApp, json, login, userClient, type ErrorResponseBody, type Ok
} from '#test/helpers.js'
import {
  ensureFirstAdmin, FIRST_ADMIN_USERNAME, keepInitialAdminPassword
} from '#src/bootstrap.js'
import { users } from '#src/db/schema.js'

const NEXT = 'a fresh band passphrase 7'

async function withFirstAdmin () {
  const ctx = await createTestApp()
  const { generatedPassword } = await ensureFirstAdmin(ctx.app.db, ctx.now())
  const file = keepInitialAdminPassword(ctx.dir, generatedPassword!)
  const row = ctx.app.db.select().from(users).where(eq(users.username, FIRST_ADMIN_USERNAME)).get()!
  const first = { id: row.id, username: row.username, role: 'admin' as const }
  return { ctx, file, first, password: generatedPassword! }
}

test('first admin: a generated password must be changed; ADMIN_PASSWORD need not', async (t) => {
  const { ctx, first, password } = await withFirstAdmin()
  t.after(() => ctx.close())
  const admin = await login(ctx.app, first, password)
  const me = json<Ok<'/me', 'get'>>(await admin.get('/me'))
  assert.equal(me.passwordChangeRequired, true)
  assert.equal((await admin.get('/songs')).statusCode, 403)

  const other = await createTestApp()
  t.after(() => other.close())
  const chosen = await ensureFirstAdmin(other.app.db, other.now(), 'chosen admin passphrase 42')
  assert.equal(chosen.generatedPassword, null)
  assert.equal(other.app.db.select().from(users).get()!.passwordChangeRequired, false)
})

test('first admin: its file goes at its own change, and "must differ" is after NFC', async (t) => {
  const { ctx, file, first, password } = await withFirstAdmin()
  t.after(() => ctx.close())
  const admin = await login(ctx.app, first, password)
  // The same password in another Unicode spelling: the hash (NFC) could not tell them apart.
  const composed = 'Grüße aus der Kapelle, Tür zu'
  const decomposed = composed.normalize('NFD')
  assert.notEqual(composed, decomposed)
  assert.equal((await admin.put('/change_password',
    { currentPassword: password, newPassword: composed })).statusCode, 204)
  assert.ok(!existsSync(file), 'deleted at the change')
  ctx.app.db.update(users).set({ passwordChangeRequired: true }).where(eq(users.id, first.id)).run()
  const again = await login(ctx.app, first, composed)
  const same = await again.put('/change_password',
    { currentPassword: composed, newPassword: decomposed })
  assert.equal(same.statusCode, 400)
  assert.equal(json<ErrorResponseBody & { reason: string }>(same).reason, 'unchanged')
})

test('first admin: its file goes when an admin or a reset link sets its password', async (t) => {
  const { ctx, file, first } = await withFirstAdmin()
  t.after(() => ctx.close())
  const ada = await userClient(ctx.app, 'ada', 'admin')
  // Another user's password: the file stays.
  const mia = await userClient(ctx.app, 'mia')
  assert.equal((await ada.patch(`/users/${mia.user.id}`, { password: NEXT })).statusCode, 200)
  assert.ok(existsSync(file))
  assert.equal((await ada.patch(`/users/${first.id}`, { password: NEXT })).statusCode, 200)
  assert.ok(!existsSync(file), 'deleted when an admin sets it')

  keepInitialAdminPassword(ctx.dir, 'kept again')
  const link = json<Ok<'/users/{id}/reset-link', 'post'>>(
    await ada.post(`/users/${first.id}/reset-link`))
  const token = new URL(link.url).hash.replace('#token=', '')
  const reset = await anonymous(ctx.app).post('/password-reset',
    { token, newPassword: `${NEXT} and more` })
  assert.equal(reset.statusCode, 204, reset.body)
  assert.ok(!existsSync(file), 'deleted when a reset link sets it')
})
