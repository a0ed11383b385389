import assert from 'node:assert/strict'
import { todayIn } from '#shared/local-time.js'
import { loginOverHttp } from '#test/server-process.js'

/** A script's view of the API (cookie session over HTTP): makes test data, checks every effect. */
export class ApiSession {
  private constructor (
    readonly base: string,
    readonly cookie: string
  ) {}

  static async login (
    base: string,
    username: string,
    password: string,
    userAgent?: string
  ): Promise<ApiSession> {
    if (!userAgent) return new ApiSession(base, await loginOverHttp(base, username, password))
    const response = await fetch(`${base}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': userAgent },
      body: JSON.stringify({ username, password })
    })
    assert.equal(response.status, 200, 'login')
    return new ApiSession(
      base,
      response.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ')
    )
  }

  async request (
    method: string,
    path: string,
    body?: unknown
  ): Promise<{ status: number; body: any }> {
    const response = await fetch(`${this.base}${path}`, {
      method,
      headers: {
        cookie: this.cookie,
        ...(body === undefined ? {} : { 'content-type': 'application/json' })
      },
      body: body === undefined ? undefined : JSON.stringify(body)
    })
    const text = await response.text()
    return {
      status: response.status,
      body: text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text
    }
  }

  /** The JSON answer of a call that must succeed. */
  async ok (method: string, path: string, body?: unknown): Promise<any> {
    const { status, body: answer } = await this.request(method, path, body)
    assert.ok(
      status >= 200 && status < 300,
      `${method} ${path}: ${status} ${JSON.stringify(answer)}`
    )
    return answer
  }

  get = (path: string) => this.ok('GET', path)
}

/** The zone of the test band (test/browser/band-fixture.ts starts its server with it). */
export const BAND_TIMEZONE = 'Europe/Berlin'

/**
 * `YYYY-MM-DD`, `days` from the band's today: a gig "today" (`dayFromNow(0)`) is tonight's gig
 * for the band (UTC's date is the band's yesterday after 23:00 UTC in winter: no live mode).
 */
export function dayFromNow (days: number): string {
  const today = todayIn(BAND_TIMEZONE, new Date())
  const noon = Date.parse(`${today}T12:00:00Z`)
  return new Date(noon + days * 86_400_000).toISOString().slice(0, 10)
}
