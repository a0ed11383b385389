import Fastify, { type FastifyServerOptions } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { fastifyTrustProxy, loadConfig, type Config } from './config.js'
import { systemClock, type Clock } from './clock.js'
import { ensureFirstAdmin, ensureJwtSecret, keepInitialAdminPassword } from './bootstrap.js'
import { APP_VERSION } from './version.js'
import { createSchemaController } from './validation.js'
import { withLogRedaction } from '#src/http/log-redaction.js'
import { RequestLog, serverLogger } from '#src/http/request-log.js'
import { clientErrorHandler, clientIdentifier, createHttpServer } from '#src/http/http-server.js'
import type { FairScheduler } from '#src/http/fair-scheduler.js'
// Wrappers of ecosystem plugins
import compressPlugin from '#plugins/external/compress.js'
import cookiePlugin from '#plugins/external/cookie.js'
import corsPlugin from '#plugins/external/cors.js'
import jwtPlugin from '#plugins/external/jwt.js'
import rateLimitPlugin from '#plugins/external/rate-limit.js'
import swaggerPlugin from '#plugins/external/swagger.js'
// The app's own decorators and hooks
import accessControlPlugin from '#plugins/app/access-control.js'
import appSettingsPlugin from '#plugins/app/app-settings.js'
import clockPlugin from '#plugins/app/clock.js'
import dbPlugin from '#plugins/app/db.js'
import serveDocumentPlugin from '#plugins/app/serve-document.js'
import errorsPlugin, { frameworkErrorHandler } from '#plugins/app/errors.js'
import dbChangesPlugin from '#plugins/app/db-changes.js'
import liveViewsPlugin from '#plugins/app/live-views.js'
import notifierPlugin from '#plugins/app/notifier.js'
import passwordWorkPlugin from '#plugins/app/password-work.js'
import requestBodyPlugin from '#plugins/app/request-body.js'
import responseCachePlugin from '#plugins/app/response-cache.js'
import securityPlugin from '#plugins/app/security.js'
import sessionPlugin from '#plugins/app/session.js'
import storageHealthPlugin from '#plugins/app/storage-health.js'
import fileStorePlugin from '#plugins/app/file-store.js'
// Resources
import healthRoutes from '#plugins/health/routes.js'
import sessionRoutes from '#plugins/sessions/routes.js'
import meRoutes from '#plugins/me/routes.js'
import userRoutes from '#plugins/users/routes.js'
import appConfigRoutes from '#plugins/app-config/routes.js'
import { firstRunAppConfig } from '#schemas/app-config.js'
import { hasStoredConfig } from '#src/repositories/app-settings.js'
import songRoutes from '#plugins/songs/routes.js'
import chartRoutes from '#plugins/charts/routes.js'
import rehearsalRoutes from '#plugins/rehearsals/routes.js'
import surveyRoutes from '#plugins/surveys/routes.js'
import todoRoutes from '#plugins/todos/routes.js'
import gigRoutes from '#plugins/gigs/routes.js'
import liveRoutes from '#plugins/live/routes.js'
import documentRoutes from '#plugins/documents/routes.js'
import calendarRoutes from '#plugins/calendar/routes.js'
import checklistRoutes from '#plugins/checklist/routes.js'
import repertoireRoutes from '#plugins/repertoire/routes.js'
import exportRoutes from '#plugins/exports/routes.js'
import passwordResetRoutes from '#plugins/password-reset/routes.js'
import { createLinkMail } from '#plugins/password-reset/link-mail.js'
import statsRoutes from '#plugins/stats/routes.js'
import webAppRoutes from '#plugins/web/routes.js'
import moneyRoutes from '#plugins/money/routes.js'
import notificationsPlugin from '#plugins/notifications/plugin.js'
import answerLinkRoutes from '#plugins/answer-links/routes.js'
import lineupRoutes from '#plugins/lineup/routes.js'
import fileRoutes from '#plugins/files/routes.js'

// Under tsx, `#src/...` must resolve to these sources, not silently to an older build in dist/.
if (import.meta.url.endsWith('.ts') && !import.meta.resolve('#src/app.js').endsWith('.ts')) {
  throw new Error('run the sources with node --conditions=bandstand-source (see package.json)')
}

export interface BuildAppOptions {
  /** Defaults to the validated environment. */
  config?: Config
  logger?: FastifyServerOptions['logger']
  clock?: Clock
  /** Create `admin` on an empty database (the server does; tests seed their own users). */
  createFirstAdmin?: boolean
  /** Trace every SQL statement to `app.dbTrace` (tests that count statements). */
  traceSql?: boolean
  /**
   * Compile all schemas at start rather than on first use (tests: a broken schema fails at once).
   */
  compileSchemasAtStart?: boolean
  /** The built web app to serve (tests of a new release); defaults to dist/web. */
  webRoot?: string
}

/**
 * How long a client may take (docs/operations.md → Limits and timeouts). Nothing waits for a client
 * for ever: a connection that withholds its request, or holds a socket without traffic, is closed.
 */
export const NETWORK_TIMEOUTS = {
  /** Headers and body of a request (a 2 MB logo over a slow phone uplink takes ~15 s). */
  requestMs: 30_000,
  /** The headers alone. */
  headersMs: 10_000,
  /** How often Node looks for requests over these two limits. */
  checkIntervalMs: 1_000,
  /**
   * A socket without any traffic either way (event streams send a heartbeat every 15 s; a
   * document download sends as fast as the client reads). Not while the server works on an
   * answer: that silence is its own (src/http/http-server.ts).
   */
  idleMs: 60_000,
  /** An idle keep-alive connection between two requests (phones poll every second or two). */
  keepAliveMs: 10_000
} as const

declare module 'fastify' {
  interface FastifyInstance {
    /** Fair turns between clients in front of Fastify (src/http/http-server.ts). */
    requestTurns: FairScheduler
  }
}

export async function buildApp (options: BuildAppOptions = {}) {
  const config = options.config ?? loadConfig()
  const clock = options.clock ?? systemClock
  let requestTurns!: FairScheduler
  const app = Fastify({
    logger: withLogRedaction(options.logger ?? serverLogger(config)),
    // One line per request (src/http/request-log.ts) instead of Fastify's two.
    logController: new RequestLog(),
    trustProxy: fastifyTrustProxy(config.trustProxy),
    bodyLimit: config.bodyLimitBytes,
    requestTimeout: NETWORK_TIMEOUTS.requestMs,
    connectionTimeout: NETWORK_TIMEOUTS.idleMs,
    keepAliveTimeout: NETWORK_TIMEOUTS.keepAliveMs,
    http: {
      headersTimeout: NETWORK_TIMEOUTS.headersMs,
      connectionsCheckingInterval: NETWORK_TIMEOUTS.checkIntervalMs
    },
    routerOptions: { ignoreTrailingSlash: true },
    serverFactory: (handler, serverOptions) => {
      const created = createHttpServer(handler, serverOptions)
      requestTurns = created.scheduler
      return created.server
    },
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    schemaController: createSchemaController({
      compileAtStart: options.compileSchemasAtStart,
      // Called at request time only, when `app` exists.
      onUnreadableRows: ({ method, url, ids, error }) => app.log.warn(
        { route: `${method} ${url}`, ids, err: error },
        `${method} ${url} left out ${ids.length} stored row(s) it cannot read (ids ` +
          `${ids.join(', ')}): an older Bandstand wrote them? Run bandstand doctor`)
    })
  }).withTypeProvider<TypeBoxTypeProvider>()

  if (config.trustProxy === true) {
    app.log.warn(
      'TRUST_PROXY=true trusts every X-Forwarded-For hop: any client can choose the address the ' +
        'rate limits count. Set the number of proxies (TRUST_PROXY=1) or their addresses.'
    )
  }

  // Cross-cutting plugins first, in dependency order; then one line per resource.
  await app.register(errorsPlugin)
  await app.register(requestBodyPlugin)
  await app.register(dbPlugin, {
    databaseFile: config.databaseFile,
    traceSql: options.traceSql,
    backup: config.backup
  })
  await app.register(clockPlugin, { clock })
  await app.register(storageHealthPlugin, {
    dataDir: config.dataDir,
    minFreeMb: config.minFreeMb
  })
  await app.register(fileStorePlugin, {
    dataDir: config.dataDir,
    quotaBytes: config.filesQuotaBytes
  })
  await app.register(compressPlugin)
  await app.register(swaggerPlugin, { enabled: config.docsEnabled, version: APP_VERSION })
  await app.register(corsPlugin, { corsOrigins: config.corsOrigins })
  await app.register(securityPlugin, { corsOrigins: config.corsOrigins, hsts: config.hsts })
  await app.register(rateLimitPlugin)
  await app.register(cookiePlugin)
  await app.register(jwtPlugin, { secret: ensureJwtSecret(config.dataDir, config.jwtSecret) })
  await app.register(sessionPlugin, { cookieSecure: config.cookieSecure })
  requestTurns.identifyClientsBy(
    clientIdentifier(fastifyTrustProxy(config.trustProxy), app.memberOfToken)
  )
  app.decorate('requestTurns', requestTurns)
  await app.register(accessControlPlugin)
  await app.register(appSettingsPlugin)
  await app.register(responseCachePlugin)
  await app.register(dbChangesPlugin)
  await app.register(liveViewsPlugin, { limits: config.liveStreams })
  await app.register(serveDocumentPlugin)
  await app.register(passwordWorkPlugin)
  await app.register(notifierPlugin, {
    webhookUrl: config.notifyWebhookUrl,
    publicUrl: config.publicUrl
  })

  await app.register(healthRoutes)
  await app.register(sessionRoutes)
  await app.register(meRoutes, { dataDir: config.dataDir })
  const links = createLinkMail({
    publicUrl: config.publicUrl,
    smtpUrl: config.smtpUrl,
    smtpFrom: config.smtpFrom
  })
  app.addHook('onClose', async () => links.close())
  await app.register(userRoutes, { links, dataDir: config.dataDir })
  await app.register(appConfigRoutes, {
    docsEnabled: config.docsEnabled,
    dataDir: config.dataDir,
    backups: config.backup !== undefined
  })
  await app.register(songRoutes)
  await app.register(chartRoutes)
  await app.register(rehearsalRoutes)
  await app.register(surveyRoutes)
  await app.register(todoRoutes)
  await app.register(gigRoutes)
  await app.register(liveRoutes)
  await app.register(documentRoutes)
  await app.register(calendarRoutes)
  await app.register(checklistRoutes)
  await app.register(repertoireRoutes)
  await app.register(exportRoutes)
  await app.register(statsRoutes)
  await app.register(moneyRoutes)
  await app.register(passwordResetRoutes, {
    links,
    adminLinkHours: config.adminResetLinkHours,
    dataDir: config.dataDir
  })
  await app.register(notificationsPlugin, { config })
  await app.register(answerLinkRoutes)
  await app.register(lineupRoutes)
  await app.register(fileRoutes)
  await app.register(webAppRoutes, { enabled: config.webEnabled, root: options.webRoot })

  if (options.createFirstAdmin !== false) {
    const { created, generatedPassword } = await ensureFirstAdmin(
      app.db,
      clock(),
      config.adminPassword
    )
    if (created && !hasStoredConfig(app.db)) {
      // A fresh installation: the band's language and timezone from BAND_LOCALE/TZ, else English
      // and UTC. An existing one (users present) keeps what it has.
      app.appSettings.set(firstRunAppConfig(config.firstRun.locale, config.firstRun.timezone))
    }
    if (created) {
      const file = generatedPassword
        ? keepInitialAdminPassword(config.dataDir, generatedPassword)
        : null
      const message = generatedPassword
        ? `First start: created user "admin" with password ${generatedPassword} — ` +
          'log in with POST /login and change it (PUT /change_password). Until then it is ' +
          `also in ${file}.`
        : 'First start: created user "admin" with the password from ADMIN_PASSWORD.'
      app.log.warn(message)
      // At LOG_LEVEL=error or silent the log hides it: the person starting the server still
      // needs it once.
      const hidden = ['error', 'fatal', 'silent'].includes(app.log.level)
      if (generatedPassword && hidden) process.stderr.write(message + '\n')
    }
  }
  return app
}

export type App = Awaited<ReturnType<typeof buildApp>>
