import fp from 'fastify-plugin'
import type { RouteOptions } from 'fastify'
import { forbidden } from '#src/errors.js'
import { roleAtLeast } from '#shared/enums.js'
import { ErrorResponse, type RoleType } from '#schemas/common.js'
import type { AuthUser } from './session.js'

/**
 * Who may call a route. Every route declares one in `config.access`; the default is to refuse to
 * start.
 */
export type Access = 'public' | 'member' | 'editor' | 'admin'

export interface RouteAccess {
  method: string
  url: string
  access: Access
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access
    /**
     * The route answers a user who must change their password first (GET /me, PUT
     * /change_password); every other non-public route answers 403 PASSWORD_CHANGE_REQUIRED.
     */
    duringPasswordChange?: boolean
  }
  interface FastifyInstance {
    /** Every route with its declared access level: the authorization matrix test walks it. */
    routeTable: RouteAccess[]
    hasRole(user: AuthUser, needed: RoleType): boolean
  }
}

/**
 * Access control: every route declares its access level (checked at start), and every request to a
 * non-public route needs a live session (the session plugin) with a role that suffices.
 */
export default fp(
  async (app) => {
    app.decorate('hasRole', (user: AuthUser, needed: RoleType) => roleAtLeast(user.role, needed))

    const routeTable: RouteAccess[] = []
    app.decorate('routeTable', routeTable)
    app.addHook('onRoute', (route) => {
      const access = declareAccess(route)
      if (access) {
        for (const method of [route.method].flat()) {
          routeTable.push({ method, url: route.url, access })
        }
      }
    })
    // A callback hook, not an async one: it runs on every request and has nothing to wait for.
    app.addHook('onRequest', (request, _reply, done) => {
      const access = request.routeOptions.config.access ?? 'public'
      if (access === 'public') return done()
      try {
        request.user = app.authenticate(request)
      } catch (error) {
        return done(error as Error)
      }
      const { duringPasswordChange } = request.routeOptions.config
      if (request.user.passwordChangeRequired && !duringPasswordChange) {
        const message = 'choose a new password first (PUT /change_password)'
        return done(forbidden(message, 'PASSWORD_CHANGE_REQUIRED'))
      }
      if (!app.hasRole(request.user, access === 'member' ? 'member' : access)) {
        return done(forbidden(`${access} role required`))
      }
      done()
    })
  },
  { name: 'access-control', fastify: '5.x', dependencies: ['session', 'errors'] }
)

/**
 * Checks every route's access level at start (a forgotten one stops the server) and writes the
 * consequences into its schema: the cookie security requirement and the 401/403/400/413/429/500/503
 * answers.
 */
function declareAccess (route: RouteOptions): Access | undefined {
  const config = (route.config ?? {}) as {
    access?: Access
    rateLimit?: unknown
    duringPasswordChange?: boolean
  }
  const schema = (route.schema ?? {}) as Record<string, unknown> & {
    response?: Record<string, unknown>
  }
  if (!config.access) {
    // Swagger UI's own routes and the CORS preflight are hidden from the docs and public by nature.
    if (schema.hide === true || route.method === 'OPTIONS') return undefined
    throw new Error(`route ${String(route.method)} ${route.url} declares no config.access`)
  }
  const response: Record<string, unknown> = { ...schema.response }
  const add = (status: number, description: string) => {
    response[status] ??= { ...ErrorResponse, description }
  }
  const methods = [route.method].flat()
  const unsafe = methods.some((m) => !['GET', 'HEAD', 'OPTIONS'].includes(m))
  if (schema.body || schema.params || schema.querystring) add(400, 'Invalid input')
  if (config.access !== 'public') add(401, 'No or invalid session')
  // Every non-public route refuses a user who must change their password first.
  const mustChange =
    config.access === 'public' || config.duringPasswordChange ? '' : ', or PASSWORD_CHANGE_REQUIRED'
  if (config.access === 'editor' || config.access === 'admin' || unsafe) {
    add(
      403,
      config.access === 'public' || config.access === 'member'
        ? `Cross-site request refused${mustChange}`
        : `Requires the ${config.access} role (or a cross-site request${mustChange})`
    )
  } else if (mustChange) {
    add(403, 'PASSWORD_CHANGE_REQUIRED: the user must change their password first')
  }
  if (schema.body) add(413, 'Body too large')
  if (config.rateLimit) add(429, 'Rate limit exceeded')
  add(500, 'Internal error')
  // Answered in front of Fastify (src/http/http-server.ts) to any route: a client with too many
  // requests waiting while the server is busy; and by the error handler to any write that could
  // not be stored.
  add(503, 'The server is busy and this client has too many requests waiting (SERVER_BUSY; ' +
    'see Retry-After), or the change could not be stored (STORAGE_FAILED: disk full or failing)')
  route.schema = {
    ...schema,
    response,
    ...(config.access === 'public' ? {} : { security: [{ cookieAuth: [] }] })
  }
  return config.access
}
