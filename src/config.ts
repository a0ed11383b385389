import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseEnv } from 'node:util'
import { Type, type Static } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import proxyAddr from '@fastify/proxy-addr'
import type { BackupSettings } from '#src/storage/backup.js'
import { isValidTimeZone } from '#shared/local-time.js'
import { PASSWORD_LIMITS } from '#shared/limits.js'

const Bool = Type.Union([Type.Literal('true'), Type.Literal('false')])

/** Environment variables, exactly as an operator writes them (strings). */
export const EnvSchema = Type.Object({
  PORT: Type.String({ pattern: '^[0-9]{1,5}$', default: '3000' }),
  HOST: Type.String({ minLength: 1, default: '0.0.0.0' }),
  DATA_DIR: Type.String({ minLength: 1, default: './data' }),
  JWT_SECRET: Type.Optional(Type.String({ minLength: 32, description: 'at least 32 characters' })),
  CORS_ORIGINS: Type.String({
    default: '',
    pattern: '^(|https?://[^,\\s/]+(,\\s*https?://[^,\\s/]+)*)$',
    description: 'comma-separated origins such as https://band.example'
  }),
  TRUST_PROXY: Type.String({
    default: 'false',
    pattern: '^(true|false|[0-9]{1,2}|[0-9a-zA-Z:.\\/]+(,\\s*[0-9a-zA-Z:.\\/]+)*)$',
    description: 'false, a hop count (1 = one proxy), or proxy addresses/CIDRs'
  }),
  COOKIE_SECURE: Type.Union([Type.Literal('auto'), Bool], { default: 'auto' }),
  DOCS_ENABLED: Type.Union([Bool], { default: 'true' }),
  WEB_ENABLED: Type.Union([Bool], { default: 'true' }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' }
  ),
  LOG_FORMAT: Type.Optional(Type.Union([Type.Literal('pretty'), Type.Literal('json')])),
  BACKUP_DIR: Type.Optional(Type.String({ minLength: 1, description: 'off when unset' })),
  BACKUP_KEEP: Type.String({ pattern: '^[1-9][0-9]{0,3}$', default: '14' }),
  ADMIN_PASSWORD: Type.Optional(
    Type.String({ minLength: PASSWORD_LIMITS.min, maxLength: PASSWORD_LIMITS.max })
  ),
  BODY_LIMIT_BYTES: Type.String({ pattern: '^[0-9]+$', default: String(1024 * 1024) }),
  PUBLIC_URL: Type.Optional(
    Type.String({
      pattern: '^https?://[^\\s/?#]+(/[^\\s?#]*)?$',
      description: 'the address members reach Bandstand at, e.g. https://band.example'
    })
  ),
  SMTP_URL: Type.Optional(
    Type.String({ pattern: '^smtps?://\\S+$', description: 'smtp://user:pass@host:587 or smtps://…' })
  ),
  SMTP_FROM: Type.Optional(Type.String({ minLength: 3, maxLength: 200 })),
  PUSH_LOCAL_ENDPOINTS: Type.Union([Bool], {
    default: 'false',
    description: 'true: push subscriptions may name http://localhost (development and tests)'
  }),
  ADMIN_RESET_LINK_HOURS: Type.String({
    pattern: '^[1-9][0-9]{0,2}$',
    default: '24',
    description: 'hours an admin-made reset link lasts (1-999)'
  }),
  HSTS_PRELOAD: Type.Union([Bool], { default: 'false' }),
  NOTIFY_WEBHOOK_URL: Type.Optional(
    Type.String({ pattern: '^https?://\\S+$', description: 'Mattermost/Slack incoming webhook' })
  ),
  SSE_MAX_STREAMS: Type.String({ pattern: '^[1-9][0-9]{0,5}$', default: '256' }),
  SSE_MAX_STREAMS_PER_USER: Type.String({ pattern: '^[1-9][0-9]{0,5}$', default: '8' }),
  SSE_MAX_STREAMS_PER_SESSION: Type.String({ pattern: '^[1-9][0-9]{0,5}$', default: '4' }),
  BAND_LOCALE: Type.Optional(
    Type.String({
      pattern: '^[a-z]{2,3}(-[A-Z]{2})?$',
      description: 'the band language at first start only, e.g. de-DE (else English)'
    })
  ),
  TZ: Type.Optional(Type.String({ description: 'the band timezone at first start (else UTC)' })),
  MIN_FREE_MB: Type.String({
    pattern: '^[0-9]{1,7}$',
    default: '64',
    description: 'megabytes (0 turns the free-space check off)'
  }),
  FILES_QUOTA_MB: Type.String({
    pattern: '^[0-9]{1,7}$',
    default: '2048',
    description: "megabytes all of the band's song and gig files may take together"
  })
})
export type Env = Static<typeof EnvSchema>

/**
 * Which peers may speak for the client in X-Forwarded-For/-Proto/-Host: none (false), all (true:
 * the left-most, client-written address counts; warned about at start), the nearest `hops` peers,
 * or the listed proxy addresses. In the last two the client is the right-most untrusted hop.
 */
export type TrustProxy = boolean | { hops: number } | string[]

/** The validated, typed configuration the app runs with. */
export interface Config {
  port: number
  host: string
  dataDir: string
  databaseFile: string
  jwtSecret?: string
  corsOrigins: string[]
  trustProxy: TrustProxy
  cookieSecure: 'auto' | 'always' | 'never'
  docsEnabled: boolean
  /** Serve the web app at /app/ (and redirect / there). */
  webEnabled: boolean
  logLevel: string
  /** pretty: one readable line per event (default on a terminal); json: for a log collector. */
  logFormat: 'pretty' | 'json'
  /** Automatic backups (src/storage/backup.ts); off without BACKUP_DIR. */
  backup?: BackupSettings
  adminPassword?: string
  bodyLimitBytes: number
  /** Base of the links in reset mails and chat notices (without: the request's own origin). */
  publicUrl?: string
  smtpUrl?: string
  smtpFrom: string
  /** Push subscriptions may name a plain-HTTP endpoint on this machine (never in production). */
  pushLocalEndpoints: boolean
  /** Life of a reset link an admin makes (the command line's last 15 minutes). */
  adminResetLinkHours: number
  notifyWebhookUrl?: string
  /** Strict-Transport-Security on answers to HTTPS requests. */
  hsts: string
  /** Caps on live-mode event streams (see src/http/live-followers.ts). */
  liveStreams: { total: number; perUser: number; perSession: number; slowReaderBytes: number }
  /** /health answers 503 when DATA_DIR's file system has less free space than this. */
  minFreeMb: number
  /** The bytes all song and gig files may take together (FILES_QUOTA_MB). */
  filesQuotaBytes: number
  /** BAND_LOCALE and TZ: the band's language and timezone on a fresh installation only. */
  firstRun: { locale?: string; timezone?: string }
}

/**
 * An event stream whose unread bytes pass this is closed: a quarter of a MiB is a dozen snapshots
 * of a 60-song gig, or one of a setlist with ~700 entries (a larger one closes at once and the
 * client reconnects for the newest).
 */
const SLOW_READER_BYTES = 256 * 1024

export class ConfigError extends Error {
  override name = 'ConfigError'
}

/** Validates the environment; an invalid value throws a ConfigError naming the variable. */
export function loadConfig (env: NodeJS.ProcessEnv = process.env): Config {
  const known = Object.fromEntries(
    Object.keys(EnvSchema.properties)
      .filter((key) => env[key] !== undefined && env[key] !== '')
      .map((key) => [key, env[key]])
  )
  const values = Value.Default(EnvSchema, known) as Env
  const problems = [...Value.Errors(EnvSchema, values)].map((error) => {
    const name = error.path.replace(/^\//, '')
    // These may carry passwords or tokens: never echoed.
    const secret = ['JWT_SECRET', 'ADMIN_PASSWORD', 'SMTP_URL', 'NOTIFY_WEBHOOK_URL'].includes(name)
    return `${name}: ${error.message}${secret ? '' : ` (got "${String(error.value)}")`}`
  })
  if (problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n  ${[...new Set(problems)].join('\n  ')}`)
  }
  if (values.SMTP_URL && !values.PUBLIC_URL) {
    // The link in a mail must not take the request's Host header: anyone who can make an admin's
    // request carry another Host would receive the member's reset link.
    throw new ConfigError(
      'Invalid configuration:\n  PUBLIC_URL: required with SMTP_URL (the address of the links ' +
        'in mails, e.g. https://band.example)'
    )
  }
  const port = Number(values.PORT)
  if (port < 1 || port > 65535) {
    throw new ConfigError(`Invalid configuration:\n  PORT: must be 1-65535 (got "${values.PORT}")`)
  }
  const dataDir = resolve(values.DATA_DIR)
  return {
    port,
    host: values.HOST,
    dataDir,
    databaseFile: resolve(dataDir, 'bandstand.db'),
    jwtSecret: values.JWT_SECRET,
    corsOrigins: values.CORS_ORIGINS.split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    trustProxy: parseTrustProxy(values.TRUST_PROXY),
    cookieSecure:
      values.COOKIE_SECURE === 'auto'
        ? 'auto'
        : values.COOKIE_SECURE === 'true'
          ? 'always'
          : 'never',
    docsEnabled: values.DOCS_ENABLED === 'true',
    webEnabled: values.WEB_ENABLED === 'true',
    logLevel: values.LOG_LEVEL,
    logFormat: values.LOG_FORMAT ?? (process.stdout.isTTY ? 'pretty' : 'json'),
    backup: values.BACKUP_DIR
      ? { dir: resolve(values.BACKUP_DIR), keep: Number(values.BACKUP_KEEP) }
      : undefined,
    adminPassword: values.ADMIN_PASSWORD,
    bodyLimitBytes: Number(values.BODY_LIMIT_BYTES),
    publicUrl: values.PUBLIC_URL?.replace(/\/+$/, ''),
    smtpUrl: values.SMTP_URL,
    smtpFrom: values.SMTP_FROM ?? 'Bandstand <bandstand@localhost>',
    pushLocalEndpoints: values.PUSH_LOCAL_ENDPOINTS === 'true',
    adminResetLinkHours: Number(values.ADMIN_RESET_LINK_HOURS),
    notifyWebhookUrl: values.NOTIFY_WEBHOOK_URL,
    // One year, the minimum browsers' preload lists take; preloading (all subdomains, for good)
    // is the operator's decision.
    hsts: values.HSTS_PRELOAD === 'true'
      ? 'max-age=31536000; includeSubDomains; preload'
      : 'max-age=31536000',
    liveStreams: {
      total: Number(values.SSE_MAX_STREAMS),
      perUser: Number(values.SSE_MAX_STREAMS_PER_USER),
      perSession: Number(values.SSE_MAX_STREAMS_PER_SESSION),
      slowReaderBytes: SLOW_READER_BYTES
    },
    minFreeMb: Number(values.MIN_FREE_MB),
    filesQuotaBytes: Number(values.FILES_QUOTA_MB) * 1024 * 1024,
    firstRun: { locale: values.BAND_LOCALE, timezone: firstRunTimezone(values.TZ) }
  }
}

/**
 * TZ as an IANA zone for the band's first configuration: glibc's `:Europe/Berlin` spelling is
 * accepted; a TZ that names no IANA zone (a POSIX rule, a file path) is not a band setting.
 */
function firstRunTimezone (raw: string | undefined): string | undefined {
  const zone = raw?.replace(/^:/, '').trim()
  return zone && isValidTimeZone(zone) ? zone : undefined
}

function parseTrustProxy (raw: string): TrustProxy {
  if (raw === 'true') return true
  if (raw === 'false' || raw === '0') return false
  if (/^[0-9]+$/.test(raw)) return { hops: Number(raw) }
  const proxies = raw
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean)
  try {
    proxyAddr.compile(proxies) // the names loopback, linklocal, uniquelocal included
  } catch (error) {
    throw new ConfigError(
      `Invalid configuration:\n  TRUST_PROXY: ${(error as Error).message} (got "${raw}")`
    )
  }
  return proxies
}

/**
 * What Fastify takes: since 5.12.1 a bare number is no longer a hop count (it trusts nothing), so
 * a hop count is a function of the hop's position (proxy-addr walks from the socket's peer, hop 0,
 * towards the left of X-Forwarded-For and stops at the first hop it does not trust).
 */
export function fastifyTrustProxy (
  trust: TrustProxy
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'boolean' || Array.isArray(trust)) return trust
  const { hops } = trust
  return (_address, hop) => hop < hops
}

/** The settings file in DATA_DIR that the server and the CLI both read (README → Configuration). */
export const SHARED_ENV_FILE = 'bandstand.env'

/**
 * The server's and the CLI's one configuration, strongest first: the environment, `.env` in the
 * working directory, then `DATA_DIR/bandstand.env` (DATA_DIR as the first two set it), so that
 * `bandstand db:backup` run with the service's DATA_DIR sees the service's BACKUP_DIR and
 * PUBLIC_URL. A file never overrides a variable already set.
 */
export function loadDotEnv (file = '.env', env: NodeJS.ProcessEnv = process.env): void {
  const load = (path: string) => {
    if (!existsSync(path)) return
    for (const [key, value] of Object.entries(parseEnv(readFileSync(path, 'utf8')))) {
      env[key] ??= value
    }
  }
  load(file)
  load(resolve(env.DATA_DIR || './data', SHARED_ENV_FILE))
}
