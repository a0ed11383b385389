// A display name shows who voted, answered or tapped: no member may take another active member's,
// nor pose as the admin.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  createTestApp, json, userClient, type ErrorResponseBody, type Ok
} from '#test/helpers.js'

const code = (res: { json(): unknown }) => (res.json() as ErrorResponseBody).code

test('display names: another active member\'s, or "Admin" for a non-admin, is 409', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const admin = await userClient(ctx.app, 'boss', 'admin')
  const mia = await userClient(ctx.app, 'mia')
  const otto = await userClient(ctx.app, 'otto')
  const user = { username: 'newbie', password: 'a long enough new password 9', role: 'member' }
  for (const displayName of ['MIA', ' mia ', 'Administrator', 'admin']) {
    const res = await admin.post('/users', { ...user, displayName })
    assert.equal(res.statusCode, 409, displayName)
    assert.equal(code(res), 'DISPLAY_NAME_TAKEN')
  }
  const named = await admin.post('/users', { ...user, displayName: 'Mia' })
  assert.match(named.json<ErrorResponseBody>().message, /display name "Mia" is another member's/)
  // Self-service and an admin's edit alike; one's own name (in another case) stays allowed.
  const taken = await otto.put('/update_user', { displayName: 'mIa' })
  assert.equal(taken.statusCode, 409)
  assert.equal(code(await otto.put('/update_user', { displayName: 'Admin' })), 'DISPLAY_NAME_TAKEN')
  assert.equal((await mia.put('/update_user', { displayName: 'MIA' })).statusCode, 200)
  assert.equal((await admin.patch(`/users/${otto.user.id}`, { displayName: 'Mia' })).statusCode,
    409)
  // An admin may be called "Admin".
  assert.equal((await admin.put('/update_user', { displayName: 'Admin' })).statusCode, 200)
  const second = await admin.post('/users',
    { ...user, username: 'chief', role: 'admin', displayName: 'Administrator' })
  assert.equal(second.statusCode, 201, second.body)
  // A deactivated member's name is free again.
  assert.equal((await admin.delete(`/users/${mia.user.id}`)).statusCode, 204)
  const freed = await otto.put('/update_user', { displayName: 'Mia' })
  assert.equal(freed.statusCode, 200)
  assert.equal(json<Ok<'/update_user', 'put'>>(freed).displayName, 'Mia')
})
