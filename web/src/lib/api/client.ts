import createClient from 'openapi-fetch'
import type { paths } from './schema'
import { firstAnswer } from './first-answers'

/**
 * One offending field of a 400 VALIDATION_ERROR: `keyword` and `params` are Ajv's (e.g.
 * `maxLength`, `{ limit: 120 }`), `message` Ajv's English text.
 */
export interface ApiErrorDetail {
  field: string
  message: string
  keyword?: string
  params?: Record<string, unknown>
}

/** The error body every API error has (docs/api.md: Fastify's shape plus a stable code). */
export interface ApiErrorBody {
  statusCode: number
  error: string
  code: string
  message: string
  details?: ApiErrorDetail[]
  /** WEAK_PASSWORD: why the password was refused (`too_short`, `too_common`, …). */
  reason?: string
}

/** A failed call: the API's error, or `NETWORK` when the server could not be reached at all. */
export class ApiFailure extends Error {
  override name = 'ApiFailure'
  constructor (
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ApiErrorDetail[] = [],
    /** Seconds to wait (429 Retry-After). */
    readonly retryAfter: number | null = null,
    /** WEAK_PASSWORD's reason code. */
    readonly reason: string | null = null
  ) {
    super(message)
  }
}

// A 401 from these is an answer about the credentials, not an expired access token.
const SESSION_PATHS = new Set(['/login', '/refresh', '/logout'])

let sessionLost: (() => void) | null = null

let passwordChangeRequired: (() => void) | null = null
/** Called on a 403 PASSWORD_CHANGE_REQUIRED: the user must choose a new password first. */
export function onPasswordChangeRequired (handler: () => void): void {
  passwordChangeRequired = handler
}

/** Called once a 401 survived the silent refresh: the session is gone (to the login page). */
export function onSessionLost (handler: () => void): void {
  sessionLost = handler
}

/**
 * What POST /refresh said: `renewed`, `refused` (the server answered 401/403: the session is over),
 * or `unreachable` (no network, a timeout, a 5xx: nothing is known about the session).
 */
type RefreshOutcome = 'renewed' | 'refused' | 'unreachable'

let refreshing: Promise<RefreshOutcome> | null = null

/** One POST /refresh at a time, shared by every request that got a 401 meanwhile. */
function refreshSession (): Promise<RefreshOutcome> {
  refreshing ??= fetch('/refresh', { method: 'POST', credentials: 'same-origin' })
    .then(
      (response): RefreshOutcome =>
        response.ok
          ? 'renewed'
          : response.status === 401 || response.status === 403
            ? 'refused'
            : 'unreachable',
      (): RefreshOutcome => 'unreachable'
    )
    .finally(() => {
      refreshing = null
    })
  return refreshing
}

/**
 * fetch with the session rule of docs/web.md: a 401 gets one silent POST /refresh and the request
 * once more; when the server refuses that refresh the session is lost. A network error or a 5xx
 * never logs anyone out (gig night in a basement: docs/deployment.md → "Gig night without a
 * network"). The cookies are httpOnly: no token ever passes through here.
 */
export async function sessionFetch (input: Request): Promise<Response> {
  const kept = firstAnswer(input)
  if (kept) return kept
  const retry = input.clone()
  const response = await fetch(input)
  if (response.status === 403) {
    // An admin may set the flag while the user works: the change-password screen comes first.
    const body = (await response.clone().json().catch(() => null)) as { code?: string } | null
    if (body?.code === 'PASSWORD_CHANGE_REQUIRED') passwordChangeRequired?.()
  }
  if (response.status !== 401 || SESSION_PATHS.has(new URL(input.url).pathname)) return response
  const outcome = await refreshSession()
  if (outcome === 'renewed') {
    const again = await fetch(retry)
    if (again.status !== 401) return again
  }
  // Unreachable: the 401 goes to the caller as an error, the session stays for the next try.
  if (outcome !== 'unreachable') sessionLost?.()
  return response
}

/** The typed API client (types generated from the server's OpenAPI document: npm run api:types). */
export const api = createClient<paths>({
  baseUrl: globalThis.location?.origin ?? '',
  credentials: 'same-origin',
  fetch: sessionFetch
})

/** Turns a failed answer into an ApiFailure (kept as it came, for errors.ts to put in words). */
export async function failureOf (response: Response, body?: unknown): Promise<ApiFailure> {
  let error = body as Partial<ApiErrorBody> | undefined
  if (error === undefined) {
    try {
      error = (await response.clone().json()) as Partial<ApiErrorBody>
    } catch {
      error = {}
    }
  }
  const retryAfter = Number(response.headers.get('retry-after'))
  return new ApiFailure(
    response.status,
    typeof error?.code === 'string' ? error.code : `HTTP_${response.status}`,
    typeof error?.message === 'string' ? error.message : response.statusText,
    Array.isArray(error?.details) ? error.details : [],
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
    typeof error?.reason === 'string' ? error.reason : null
  )
}

/**
 * Awaits an openapi-fetch call and gives its data, or throws an ApiFailure. Usage:
 * `const gig = await call(api.GET('/gigs/{id}', { params: { path: { id } } }))`.
 */
export async function call<T> (
  request: Promise<{ data?: T; error?: unknown; response: Response }>
): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response }
  try {
    result = await request
  } catch (error) {
    if (error instanceof ApiFailure) throw error
    throw new ApiFailure(0, 'NETWORK', String(error))
  }
  if (!result.response.ok) throw await failureOf(result.response, result.error)
  return result.data as T
}
