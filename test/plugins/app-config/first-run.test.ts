import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from '#src/db/orm.js'
import { buildApp, type App } from '#src/app.js'
import { loadConfig } from '#src/config.js'
import { users } from '#src/db/schema.js'
import { INITIAL_PASSWORD_FILE } from '#src/bootstrap.js'
import {
  anonymous, createTestApp, json, sessionClient, userClient, type Ok, type ErrorResponseBody
} from '#test/helpers.js'

const SECRET = 'test-secret-test-secret-test-secret-42'

/** A fresh installation (first start creates the admin), with the given environment. */
async function freshInstall (t: { after (fn: () => unknown): void }, env: NodeJS.ProcessEnv = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'bandstand-first-run-'))
  const config = loadConfig({
    DATA_DIR: dir,
    JWT_SECRET: SECRET,
    ADMIN_PASSWORD: 'the admin password from env',
    ...env
  })
  const app = await buildApp({ config, logger: false })
  await app.ready()
  t.after(async () => {
    await app.close()
    rmSync(dir, { recursive: true, force: true })
  })
  const row = app.db.select().from(users).where(eq(users.username, 'admin')).get()!
  const admin = sessionClient(app, { id: row.id, username: 'admin', role: 'admin' })
  return { app, admin, dir }
}

const publicConfig = async (app: App) =>
  json<Ok<'/public/app_config', 'get'>>(await anonymous(app).get('/public/app_config'))

test('first start without BAND_LOCALE/TZ: English, UTC, English lists, not chosen', async (t) => {
  const { app } = await freshInstall(t)
  const config = await publicConfig(app)
  assert.equal(config.locale, 'en-GB')
  assert.equal(config.timezone, 'UTC')
  assert.equal(config.bandName, 'Our Band')
  assert.equal(config.localeChosen, false)
  assert.ok(config.gigKinds.includes('Wedding'))
  assert.ok(!config.gigKinds.includes('Hochzeit'))
  assert.ok(config.genres.includes('Ballad'))
})

test('first start with BAND_LOCALE and TZ: that language (chosen), zone and lists', async (t) => {
  const { app } = await freshInstall(t, { BAND_LOCALE: 'de-DE', TZ: ':Europe/Vienna' })
  const config = await publicConfig(app)
  assert.equal(config.locale, 'de-DE')
  assert.equal(config.timezone, 'Europe/Vienna')
  assert.equal(config.bandName, 'Unsere Band')
  assert.equal(config.localeChosen, true)
  assert.ok(config.gigKinds.includes('Hochzeit'))
  assert.ok(config.genres.includes('Schlager'))
})

test('a TZ that is no IANA zone is not the band timezone; a bad BAND_LOCALE stops', () => {
  assert.equal(loadConfig({ TZ: 'CET-1CEST,M3.5.0,M10.5.0/3' }).firstRun.timezone, undefined)
  assert.equal(loadConfig({ TZ: 'America/New_York' }).firstRun.timezone, 'America/New_York')
  assert.throws(() => loadConfig({ BAND_LOCALE: 'German' }), /BAND_LOCALE/)
})

test('an existing installation keeps its configuration (no first-run defaults)', async (t) => {
  const ctx = await createTestApp({ firstRun: { locale: 'en-GB', timezone: 'UTC' } })
  t.after(() => ctx.close())
  const config = await publicConfig(ctx.app)
  // No admin was created at this start: the stored (here: built-in) configuration stays.
  assert.equal(config.locale, 'de-DE')
  assert.equal(config.timezone, 'Europe/Berlin')
  assert.equal(config.localeChosen, true)
  const admin = await userClient(ctx.app, 'boss', 'admin')
  assert.equal(json<Ok<'/admin/setup', 'get'>>(await admin.get('/admin/setup')).dismissed, true)
})

test('choosing German in the settings takes the untouched built-in lists along', async (t) => {
  const { app, admin } = await freshInstall(t)
  // Keys are music, not a setting (docs/keys.md): the public list is read-only.
  const { version, gigStatuses, songStatuses, hasLogo, localeChosen, keys, ...rest } =
    await publicConfig(app)
  void [version, gigStatuses, songStatuses, hasLogo, localeChosen, keys]
  const { docs, ...features } = rest.features
  void docs
  const saved = await admin.put('/admin/app_config', {
    ...rest,
    features,
    locale: 'de-DE',
    genres: ['Rock', 'Our own']
  })
  assert.equal(saved.statusCode, 200, saved.body)
  const config = await publicConfig(app)
  assert.equal(config.localeChosen, true)
  assert.ok(config.gigKinds.includes('Hochzeit'), 'untouched gig kinds follow the language')
  assert.deepEqual(config.genres, ['Rock', 'Our own'], 'the band’s own genres stay')
  // Saving did not dismiss the checklist.
  assert.equal(json<Ok<'/admin/setup', 'get'>>(await admin.get('/admin/setup')).dismissed, false)
})

test('a fresh English band reads English chords; a save without the field keeps it', async (t) => {
  const { app, admin } = await freshInstall(t)
  assert.equal((await publicConfig(app)).chordNotation, 'english')
  // What the configuration form sent before it had the field: everything but chordNotation.
  const {
    version, gigStatuses, songStatuses, hasLogo, localeChosen, keys, chordNotation, ...rest
  } = await publicConfig(app)
  void [version, gigStatuses, songStatuses, hasLogo, localeChosen, keys, chordNotation]
  const { docs, ...features } = rest.features
  void docs
  const saved = await admin.put('/admin/app_config', { ...rest, features })
  assert.equal(saved.statusCode, 200, saved.body)
  assert.equal(json<Ok<'/admin/app_config', 'put'>>(saved).chordNotation, 'english')
  assert.equal((await publicConfig(app)).chordNotation, 'english')
  // Sent, it is changed (and kept on the next save without it); a change of language leaves it.
  await admin.put('/admin/app_config', { ...rest, features, chordNotation: 'german' })
  await admin.put('/admin/app_config', { ...rest, features, locale: 'en-US' })
  assert.equal((await publicConfig(app)).chordNotation, 'german')
  const bad = await admin.put('/admin/app_config', { ...rest, features, chordNotation: 'dutch' })
  assert.equal(bad.statusCode, 400)
  assert.equal((await publicConfig(app)).chordNotation, 'german')
})

test('a fresh German band reads German chords', async (t) => {
  const { app } = await freshInstall(t, { BAND_LOCALE: 'de-AT' })
  assert.equal((await publicConfig(app)).chordNotation, 'german')
})

test('setup checklist: steps done from what the band has; dismissed and shown again', async (t) => {
  const { app, admin, dir } = await freshInstall(t)
  writeFileSync(join(dir, INITIAL_PASSWORD_FILE), 'generated\n')
  const steps = async () =>
    Object.fromEntries(
      json<Ok<'/admin/setup', 'get'>>(
        await admin.get('/admin/setup')).steps.map((s: any) => [s.id, s.done])
    )
  assert.deepEqual(await steps(), {
    band: false,
    language: false,
    password: false,
    members: false,
    songs: false,
    gig: false,
    https: false,
    backups: false
  })
  rmSync(join(dir, INITIAL_PASSWORD_FILE))
  assert.equal((await admin.post('/songs', { title: 'Wonderwall' })).statusCode, 201)
  assert.equal(
    (await admin.post('/gigs', { name: 'First', date: '2030-01-01' })).statusCode,
    201
  )
  const member = await userClient(app, 'mia', 'member')
  assert.deepEqual(await steps(), {
    band: false,
    language: false,
    password: true,
    members: true,
    songs: true,
    gig: true,
    https: false,
    backups: false
  })
  // HTTPS as this request came (through a trusted proxy here), backups from BACKUP_DIR.
  const behindProxy = await createTestApp({}, {
    TRUST_PROXY: '127.0.0.1', BACKUP_DIR: join(dir, 'b')
  })
  t.after(() => behindProxy.close())
  const boss = await userClient(behindProxy.app, 'boss', 'admin')
  // Over HTTPS the session cookie has its __Host- name.
  boss.jar.set('__Host-access_token', boss.jar.get('access_token')!)
  const over = async (proto: string) => Object.fromEntries(json<Ok<'/admin/setup', 'get'>>(
    await boss.get('/admin/setup', { 'x-forwarded-proto': proto })
  ).steps.map((s) => [s.id, s.done]))
  assert.equal((await over('https')).https, true)
  assert.equal((await over('http')).https, false)
  assert.equal((await over('http')).backups, true)

  assert.equal(json<Ok<'/admin/setup', 'get'>>(await admin.get('/admin/setup')).dismissed, false)
  const dismissed = await admin.put('/admin/setup', { dismissed: true })
  assert.equal(dismissed.statusCode, 200)
  assert.equal(json<Ok<'/admin/setup', 'put'>>(dismissed).dismissed, true)
  assert.equal(json<Ok<'/admin/setup', 'get'>>(await admin.get('/admin/setup')).dismissed, true)
  assert.equal(json<Ok<'/admin/setup', 'put'>>(
    await admin.put('/admin/setup', { dismissed: false })).dismissed, false)

  assert.equal((await member.get('/admin/setup')).statusCode, 403)
  assert.equal((await member.put('/admin/setup', { dismissed: true })).statusCode, 403)
  assert.equal((await anonymous(app).get('/admin/setup')).statusCode, 401)
  for (const body of [{}, { dismissed: 'yes' }, { dismissed: true, extra: 1 }]) {
    const bad = await admin.put('/admin/setup', body)
    assert.equal(bad.statusCode, 400, JSON.stringify(body))
    assert.match(json<ErrorResponseBody>(bad).message, /dismissed|extra|propert/i)
  }
  assert.equal(json<Ok<'/admin/setup', 'get'>>(await admin.get('/admin/setup')).dismissed, false)
})
