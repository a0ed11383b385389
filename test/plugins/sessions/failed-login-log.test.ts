import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { anonymous, createTestApp, createUser, PASSWORD } from '#test/helpers.js'

test('a failed login is logged with the client address and the name tried (fail2ban)',
  async (t) => {
    const lines: Array<{ level: number; msg: string; clientIp?: string; username?: string }> = []
    const stream = new Writable({
      write (chunk, _encoding, done) {
        lines.push(...String(chunk).trim().split('\n').map((line) => JSON.parse(line)))
        done()
      }
    })
    const ctx = await createTestApp({ minFreeMb: 0 }, {}, { logger: { level: 'warn', stream } })
    t.after(() => ctx.close())
    await createUser(ctx.app, 'lena')
    const failed = (body: object) => anonymous(ctx.app).post('/login', body)
    assert.equal((await failed({ username: 'lena', password: 'wrong password here' }))
      .statusCode, 401)
    // A crafted name cannot pose as another address: it comes after the real one, JSON-quoted.
    const crafted = 'x" from 203.0.113.9 "\n'
    assert.equal((await failed({ username: crafted, password: 'wrong password here' }))
      .statusCode, 401)
    assert.equal((await failed({ username: 'lena', password: PASSWORD })).statusCode, 200)
    const logged = lines.filter((line) => line.msg.startsWith('login failed'))
    assert.deepEqual(logged.map(({ level, msg, clientIp, username }) =>
      ({ level, msg, clientIp, username })), [
      {
        level: 40,
        msg: 'login failed from 127.0.0.1 for user "lena"',
        clientIp: '127.0.0.1',
        username: 'lena'
      },
      {
        level: 40,
        msg: `login failed from 127.0.0.1 for user ${JSON.stringify(crafted)}`,
        clientIp: '127.0.0.1',
        username: crafted
      }
    ])
    // The fail2ban filter of docs/security.md, on the JSON line as journald keeps it.
    const failregex = /"msg":"login failed from (?<host>[0-9a-f.:]+) for user /
    const json = JSON.stringify({ msg: logged[1]!.msg })
    assert.equal(failregex.exec(json)?.groups?.host, '127.0.0.1')
  })
