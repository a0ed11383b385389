import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import type { LightMyRequestResponse } from 'fastify'
import { buildApp, type App, type BuildAppOptions } from '#src/app.js'
import { loadConfig, type Config } from '#src/config.js'
import { users } from '#src/db/schema.js'
import { hashPassword } from '#src/auth/password.js'
import { todayIn } from '#shared/local-time.js'
import { createSession } from '#src/repositories/sessions.js'
import type { ErrorResponseBody, RoleType } from '#schemas/common.js'
// The web app's generated API types (types only): the web app is no package import of the server.
// eslint-disable-next-line no-restricted-imports
import type { paths } from '../web/src/lib/api/schema.js'

export const PASSWORD = 'correct horse battery staple 42'
let passwordHash: Promise<string> | undefined
// Hashing is deliberately slow; tests share one hash of the common test password.
const testPasswordHash = () => (passwordHash ??= hashPassword(PASSWORD))

export interface TestContext {
  app: App
  config: Config
  dir: string
  /** Moves the test clock. */
  advance(ms: number): void
  now(): Date
  close(): Promise<void>
}

/**
 * Another app on a test's configuration (a restart on its database) whose log lines from `warn` up
 * are collected; closed after the test.
 */
export async function appWithLog (config: Config, t: { after(fn: () => unknown): void }) {
  const lines: Array<{ level: number; msg: string; field?: string }> = []
  const stream = new Writable({
    write (chunk, _encoding, done) {
      lines.push(...String(chunk).trim().split('\n').map((line) => JSON.parse(line)))
      done()
    }
  })
  const app = await buildApp({ config, createFirstAdmin: false, logger: { level: 'warn', stream } })
  t.after(() => app.close())
  await app.ready()
  return { app, lines }
}

/**
 * Today in the band's timezone, by the app's clock: the date a fixture gives a gig "today" (test
 * apps keep the default configuration, Europe/Berlin; UTC's date is yesterday there after 23:00 UTC
 * in winter).
 */
export const bandToday = (app: App): string => todayIn(app.appSettings.get().timezone, app.clock())

/** A real app on a fresh, migrated SQLite file in a temp dir. */
export async function createTestApp (
  overrides: Partial<Config> = {},
  env: NodeJS.ProcessEnv = {},
  // Tests compile every schema at start, so a broken one fails at once; the fuzz test runs the
  // server's lazy compilation instead.
  {
    compileSchemasAtStart = true,
    logger = false,
    startAt,
    webRoot
  }: {
    compileSchemasAtStart?: boolean
    logger?: BuildAppOptions['logger']
    /** The app's clock starts here (and runs on): a test that depends on the day sets it. */
    startAt?: Date
    webRoot?: string
  } = {}
): Promise<TestContext> {
  const dir = mkdtempSync(join(tmpdir(), 'bandstand-test-'))
  const config: Config = {
    ...loadConfig({
      DATA_DIR: dir,
      LOG_LEVEL: 'silent',
      JWT_SECRET: 'test-secret-test-secret-test-secret-42',
      ...env
    }),
    ...overrides
  }
  let offset = startAt ? startAt.getTime() - Date.now() : 0
  const now = () => new Date(Date.now() + offset)
  const app = await buildApp({
    config,
    clock: now,
    createFirstAdmin: false,
    logger,
    traceSql: true,
    compileSchemasAtStart,
    webRoot
  })
  await app.ready()
  return {
    app,
    config,
    dir,
    now,
    advance: (ms) => {
      offset += ms
    },
    async close () {
      await app.close()
      rmSync(dir, { recursive: true, force: true })
    }
  }
}

export interface TestUser {
  id: number
  username: string
  role: RoleType
}

/** Inserts a user directly (fast) with the shared test password. */
export async function createUser (
  app: App,
  username: string,
  role: RoleType = 'member',
  extra: Partial<typeof users.$inferInsert> = {}
): Promise<TestUser> {
  const stamp = app.clock().toISOString()
  const row = app.db
    .insert(users)
    .values({
      username,
      displayName: username[0]!.toUpperCase() + username.slice(1),
      role,
      passwordHash: await testPasswordHash(),
      createdAt: stamp,
      updatedAt: stamp,
      ...extra
    })
    .returning()
    .get()
  return { id: row.id, username: row.username, role: row.role }
}

/** Cookie jar for inject(): keeps what Set-Cookie says, sends it back. */
export class CookieJar {
  private readonly cookies = new Map<string, string>()
  store (response: LightMyRequestResponse): void {
    for (const cookie of response.cookies as Array<{
      name: string
      value: string
      maxAge?: number
      expires?: Date
    }>) {
      const expired =
        cookie.maxAge === 0 ||
        (cookie.expires && cookie.expires.getTime() <= Date.now()) ||
        cookie.value === ''
      if (expired) this.cookies.delete(cookie.name)
      else this.cookies.set(cookie.name, cookie.value)
    }
  }

  get (name: string): string | undefined {
    return this.cookies.get(name)
  }

  set (name: string, value: string): void {
    this.cookies.set(name, value)
  }

  header (): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  }
}

export interface Client {
  jar: CookieJar
  user: TestUser
  request(
    method: string,
    url: string,
    payload?: unknown,
    headers?: Record<string, string>
  ): Promise<LightMyRequestResponse>
  get(url: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>
  post(
    url: string,
    payload?: unknown,
    headers?: Record<string, string>
  ): Promise<LightMyRequestResponse>
  put(
    url: string,
    payload?: unknown,
    headers?: Record<string, string>
  ): Promise<LightMyRequestResponse>
  patch(
    url: string,
    payload?: unknown,
    headers?: Record<string, string>
  ): Promise<LightMyRequestResponse>
  delete(url: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>
}

/** A client with its own cookie jar; `login` performs the real POST /login. */
export function client (app: App, user: TestUser, jar = new CookieJar()): Client {
  const request = async (
    method: string,
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {}
  ) => {
    const response = await app.inject({
      method: method as 'GET',
      url,
      ...(payload === undefined ? {} : { payload: payload as object }),
      headers: { ...(jar.header() ? { cookie: jar.header() } : {}), ...headers }
    })
    jar.store(response)
    return response
  }
  return {
    jar,
    user,
    request,
    get: (url, headers) => request('GET', url, undefined, headers),
    post: (url, payload, headers) => request('POST', url, payload, headers),
    put: (url, payload, headers) => request('PUT', url, payload, headers),
    patch: (url, payload, headers) => request('PATCH', url, payload, headers),
    delete: (url, headers) => request('DELETE', url, undefined, headers)
  }
}

export async function login (app: App, user: TestUser, password = PASSWORD): Promise<Client> {
  const c = client(app, user)
  const response = await c.post('/login', { username: user.username, password })
  if (response.statusCode !== 200) {
    throw new Error(`login of ${user.username} failed: ${response.statusCode} ${response.body}`)
  }
  return c
}

/** An anonymous client (no cookies). */
export const anonymous = (app: App) => client(app, { id: 0, username: 'anonymous', role: 'member' })

/**
 * A client with a live session for an existing user, without the deliberately slow POST /login
 * (which the session tests exercise for real).
 */
export function sessionClient (app: App, user: TestUser): Client {
  const { session } = createSession(app.db, user.id, app.clock(), { userAgent: 'test' })
  const c = client(app, user)
  c.jar.set('access_token', app.signAccessToken(user.id, session.id).token)
  return c
}

/** Creates a user and gives them a session. */
export async function userClient (
  app: App,
  username: string,
  role: RoleType = 'member'
): Promise<Client> {
  return sessionClient(app, await createUser(app, username, role))
}

/**
 * What every authenticated request may run before its own work, counted apart so that counts of
 * data statements compare requests alike whatever ran before them: the database revision's reads
 * (plugins/app/db.ts; the second only once its interval has passed) and the live-session check
 * (once per revision, src/repositories/live-sessions.ts).
 */
const REVISION_PROBE = /^(SELECT total_changes\(\)|PRAGMA data_version)$/
const SESSION_CHECK = /FROM sessions s JOIN users u ON u\.id = s\.user_id/

/**
 * Counts SQL statements the app executes while fn runs (for N+1 tests): `statements` and `sql` are
 * the request's own, `probes` the revision's reads, `sessionChecks` the live-session checks.
 */
export async function countStatements<T> (
  app: App,
  fn: () => Promise<T>
): Promise<{
  result: T
  statements: number
  sql: string[]
  probes: string[]
  sessionChecks: number
}> {
  const sql: string[] = []
  const probes: string[] = []
  let sessionChecks = 0
  app.dbTrace.listener = (statement) => {
    if (REVISION_PROBE.test(statement)) probes.push(statement)
    else if (SESSION_CHECK.test(statement)) sessionChecks++
    else sql.push(statement)
  }
  try {
    const result = await fn()
    return { result, statements: sql.length, sql, probes, sessionChecks }
  } finally {
    app.dbTrace.listener = undefined
  }
}

export type { ErrorResponseBody }

type JsonOf<T> = T extends { content: { 'application/json': infer B } } ? B : never
/**
 * The 200 (else 201) JSON body of an operation, or the one of `S`, from the OpenAPI document's
 * generated types (the web app's schema.d.ts): `json<Ok<'/songs/{id}', 'get'>>(response)`.
 */
export type Ok<P extends keyof paths, M extends keyof paths[P], S extends number = never> =
  paths[P][M] extends { responses: infer R }
    ? JsonOf<[S] extends [never]
      ? R extends { 200: infer A } ? A : R extends { 201: infer C } ? C : never
      : S extends keyof R ? R[S] : never>
    : never

/** The parsed body: `unknown` unless the caller names its type (`Ok<…>`, `ErrorResponseBody`). */
export const json = <T = unknown>(response: LightMyRequestResponse): T => response.json() as T
