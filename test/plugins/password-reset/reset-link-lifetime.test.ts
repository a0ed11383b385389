import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  anonymous, createTestApp, createUser, json, PASSWORD, sessionClient,
  type Ok,
  type ErrorResponseBody
} from '#test/helpers.js'
import { runCli } from '#src/cli.js'
import { passwordResetTokens } from '#src/db/schema.js'

const NEW_PASSWORD = 'a brand new passphrase, finally'
const tokenOf = (url: string) => new URL(url).hash.replace('#token=', '')

test(
  'reset and import links die with the password: own change, admin set, deactivation and ' +
    'reactivation, the command line',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const bossUser = await createUser(ctx.app, 'boss', 'admin')
    const boss = sessionClient(ctx.app, bossUser)
    const anon = anonymous(ctx.app)
    const linkFor = async (id: number) => {
      const r = await boss.post(`/users/${id}/reset-link`)
      assert.equal(r.statusCode, 201, r.body)
      return tokenOf(json<Ok<'/users/{id}/reset-link', 'post'>>(r).url)
    }
    const works = async (token: string) =>
      (await anon.post('/password-reset/verify', { token })).statusCode === 200

    // the member changes the password: a link made before (by someone who had their mail) is dead
    const miaUser = await createUser(ctx.app, 'mia')
    const mia = sessionClient(ctx.app, miaUser)
    const before = await linkFor(miaUser.id)
    assert.ok(await works(before))
    const changed = await mia.put('/change_password', {
      currentPassword: PASSWORD,
      newPassword: NEW_PASSWORD
    })
    assert.equal(changed.statusCode, 204, changed.body)
    assert.equal(await works(before), false)
    const redeem = await anon.post('/password-reset', {
      token: before,
      newPassword: `${NEW_PASSWORD}!`
    })
    assert.equal(json<ErrorResponseBody>(redeem).code, 'RESET_TOKEN_INVALID')

    // an admin sets a password
    const tom = await createUser(ctx.app, 'tom')
    const tomLink = await linkFor(tom.id)
    assert.equal((await boss.patch(`/users/${tom.id}`, { password: NEW_PASSWORD })).statusCode, 200)
    assert.equal(await works(tomLink), false)
    // a profile change alone leaves a link alone
    const tomLink2 = await linkFor(tom.id)
    assert.equal((await boss.patch(`/users/${tom.id}`, { displayName: 'Tommy' })).statusCode, 200)
    assert.ok(await works(tomLink2))

    // deactivated and reactivated: the old link does not come back to life
    const ann = await createUser(ctx.app, 'ann')
    const annLink = await linkFor(ann.id)
    assert.equal((await boss.delete(`/users/${ann.id}`)).statusCode, 204)
    assert.equal((await boss.patch(`/users/${ann.id}`, { status: 'active' })).statusCode, 200)
    assert.equal(await works(annLink), false)
    const unused = ctx.app.db.select().from(passwordResetTokens).all()
      .filter((row) => row.userId === ann.id && row.usedAt === null)
    assert.equal(unused.length, 0)

    // the command line's new password
    const kim = await createUser(ctx.app, 'kim')
    const kimLink = await linkFor(kim.id)
    const io = { out: () => {}, err: () => {} }
    assert.equal(await runCli(['user:reset-password', 'kim'], { DATA_DIR: ctx.dir }, io), 0)
    assert.equal(await works(kimLink), false)
  }
)
