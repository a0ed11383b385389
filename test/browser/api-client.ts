import assert from 'node:assert/strict'
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

/** `YYYY-MM-DD`, `days` from today (UTC; tests keep two days away from any timezone edge). */
export function dayFromNow (days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)
}
