import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import {
  DEFAULT_MONEY_CONFIG,
  DocumentPaletteSchema,
  EditableAppConfig,
  LogoInfo,
  PublicAppConfig,
  withListsOf,
  type PublicAppConfigType
} from '#schemas/app-config.js'
import { GIG_STATUSES, SONG_STATUSES } from '#shared/enums.js'
import { KEYS } from '#shared/keys.js'
import { ErrorResponse, NoContent, NotModified } from '#schemas/common.js'
import { ApiError, badRequest, errorBody } from '#src/errors.js'
import { isValidTimeZone } from '#shared/local-time.js'
import { paletteForAccent } from '#src/documents/palette.js'
import { APP_VERSION } from '#src/version.js'
import { LOGO_MAX_DECODED_BYTES, LOGO_MAX_SIDE } from '#src/documents/logo.js'
import { LOGOS_IN_FLIGHT, WorkersBusyError } from '#src/documents/pool.js'
import {
  deleteLogo,
  findLogo,
  findUnpreparedLogo,
  hasLogo,
  logoAccent,
  markLogoPrepared,
  saveLogo
} from './repository.js'
import { strongEtag } from '#src/http/etag.js'
import { UPLOAD_LIMITS } from '#shared/limits.js'
import { etagMatches } from '#plugins/app/response-cache.js'
import manifestRoutes from './manifest-routes.js'
import setupRoutes from './setup-routes.js'

export interface AppConfigPluginOptions {
  docsEnabled: boolean
  /** Where the generated first password is kept until the admin changes it (setup checklist). */
  dataDir: string
  /** Whether BACKUP_DIR is set (setup checklist). */
  backups: boolean
}

const PUBLIC_CACHE = 'public, max-age=300'
/** A logo check takes about a second; a few seconds free a place. */
const LOGO_RETRY_AFTER = 5
const logoNotFound = () => new ApiError('LOGO_NOT_FOUND', 'no logo has been uploaded')

/** The public app configuration and the band logo (docs/api.md → App configuration). */
const appConfigRoutes: FastifyPluginAsyncTypebox<AppConfigPluginOptions> = async (app, options) => {
  // Logo uploads are raw bytes; these parsers exist only inside this plugin.
  app.addContentTypeParser(
    ['image/png', 'image/jpeg', 'application/octet-stream'],
    { parseAs: 'buffer', bodyLimit: UPLOAD_LIMITS.logoBytes },
    (_request, body, done) => done(null, body)
  )

  // A logo stored by an older version was never checked: it is prepared (or refused for documents)
  // once, at the first start after the upgrade, so that no document ever decodes a stored file.
  app.addHook('onReady', async () => {
    const legacy = findUnpreparedLogo(app.db)
    if (!legacy) return
    try {
      const prepared = await app.documentWorkers.prepareLogo(legacy.data)
      markLogoPrepared(app.db, legacy.etag, prepared.ok ? prepared : null)
      if (!prepared.ok) {
        app.log.warn(
          `The stored logo is not used in documents (${prepared.message}); upload another one ` +
            'with PUT /admin/logo.'
        )
      }
    } catch (error) {
      // Documents go without the logo until the next start tries again.
      app.log.error({ err: error }, 'preparing the stored logo failed')
    }
  })

  // Built only from the stored band settings and constants: nothing from the environment but the
  // docs switch.
  const publicConfig = (): PublicAppConfigType => {
    const settings = app.appSettings.get()
    return {
      appName: settings.appName,
      bandName: settings.bandName,
      version: APP_VERSION,
      timezone: settings.timezone,
      locale: settings.locale,
      localeChosen: settings.setup?.localeChosen ?? true,
      genres: settings.genres,
      gigKinds: settings.gigKinds,
      gigStatuses: [...GIG_STATUSES],
      songStatuses: [...SONG_STATUSES],
      keys: [...KEYS],
      chordNotation: settings.chordNotation ?? 'german',
      timing: settings.timing,
      features: {
        docs: options.docsEnabled,
        calendar: settings.features.calendar,
        memberSongFiles: settings.features.memberSongFiles ?? false
      },
      money: settings.money ?? DEFAULT_MONEY_CONFIG,
      hasLogo: hasLogo(app.db)
    }
  }

  app.get(
    '/public/app_config',
    {
      config: { access: 'public' },
      schema: {
        tags: ['config'],
        summary: 'Public application configuration (no login); cacheable, with ETag',
        response: { 200: PublicAppConfig, 304: NotModified }
      }
    },
    async (request, reply) => {
      const body = publicConfig()
      const etag = strongEtag(JSON.stringify(body))
      reply.header('cache-control', PUBLIC_CACHE).header('etag', etag)
      if (etagMatches(request.headers['if-none-match'], etag)) {
        return reply.status(304).send(undefined as never)
      }
      return body
    }
  )

  app.put(
    '/admin/app_config',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['config'],
        summary: 'Replace the app configuration (admin); takes effect at once',
        description:
          'The whole editable document is sent (GET /public/app_config shows the ' +
          'current values); the optional `chordNotation` and `setup` are kept as they are when ' +
          'left out. An unknown timezone: 400 INVALID_TIMEZONE.',
        body: EditableAppConfig,
        response: { 200: EditableAppConfig }
      }
    },
    async (request) => {
      if (!isValidTimeZone(request.body.timezone)) {
        throw badRequest(
          'INVALID_TIMEZONE',
          `timezone ${request.body.timezone} is not an IANA timezone`
        )
      }
      const current = app.appSettings.get()
      // Saving the settings is choosing the language; the checklist's state stays unless sent.
      const setup = {
        localeChosen: true,
        checklistDismissed:
          request.body.setup?.checklistDismissed ?? current.setup?.checklistDismissed ?? true
      }
      // The optional fields are kept when not sent: a client that does not know chordNotation
      // must never switch how the band's charts are read, nor one that does not know the money
      // or answer settings change them.
      const chordNotation = request.body.chordNotation ?? current.chordNotation
      const money = request.body.money ?? current.money
      const answers = request.body.answers ?? current.answers
      return app.appSettings.set(withListsOf({
        ...request.body,
        chordNotation,
        setup,
        ...(money ? { money } : {}),
        ...(answers ? { answers } : {})
      }, current.locale))
    }
  )

  app.put(
    '/admin/logo',
    {
      config: { access: 'admin' },
      bodyLimit: UPLOAD_LIMITS.logoBytes,
      // The body schema only documents the upload; the bytes are checked by sniffImage, not by JSON
      // Schema.
      validatorCompiler: () => () => true,
      schema: {
        tags: ['config'],
        summary: 'Upload the band logo (admin): PNG or JPEG, at most 2 MB, as the raw request body',
        description:
          'Content-Type image/png, image/jpeg or application/octet-stream; the type ' +
          'is taken from the bytes, not from the header or a file name (anything else: 400 ' +
          'UNSUPPORTED_IMAGE). Larger: 413. ' +
          `At most ${LOGO_MAX_SIDE}×${LOGO_MAX_SIDE} pixels and ` +
          `${LOGO_MAX_DECODED_BYTES / 1024 / 1024} MiB decoded (4 megapixels): else 400 ` +
          'IMAGE_TOO_LARGE; a damaged image: 400 INVALID_IMAGE (the message names the reason). ' +
          `More than ${LOGOS_IN_FLIGHT} uploads being checked at once: 503 DOCUMENTS_BUSY with ` +
          'Retry-After.',
        consumes: ['image/png', 'image/jpeg', 'application/octet-stream'],
        body: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }),
        response: { 200: LogoInfo, 503: ErrorResponse }
      }
    },
    async (request, reply) => {
      const data = request.body
      if (!Buffer.isBuffer(data)) {
        throw badRequest('UNSUPPORTED_IMAGE', 'the logo must be a PNG or JPEG image')
      }
      // Checked and decoded once, here, in a worker thread; documents use only the prepared copy.
      let prepared
      try {
        prepared = await app.documentWorkers.prepareLogo(data)
      } catch (error) {
        if (!(error instanceof WorkersBusyError)) throw error
        const body = errorBody('DOCUMENTS_BUSY', `${error.message}; retry in ${LOGO_RETRY_AFTER} s`)
        return reply.status(503).header('retry-after', String(LOGO_RETRY_AFTER)).send(body)
      }
      if (!prepared.ok) throw badRequest(prepared.code, prepared.message)
      const { mimeType, watermark, accent } = prepared
      const row = saveLogo(app.db, { mimeType, data, watermark, accent }, app.clock())
      return { mimeType, bytes: row.data.length, etag: row.etag, updatedAt: row.updatedAt }
    }
  )

  app.delete(
    '/admin/logo',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['config'],
        summary: 'Remove the band logo (admin)',
        response: { 204: NoContent, 404: ErrorResponse }
      }
    },
    async (_request, reply) => {
      if (!deleteLogo(app.db)) throw logoNotFound()
      return reply.status(204).send(null)
    }
  )

  app.get(
    '/admin/logo/palette',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['config'],
        summary: 'The colours the documents use with the current logo (admin)',
        description:
          'Exactly what the schedule PDF uses: the accent is the logo’s most saturated ' +
          'mid-brightness colour (found once at upload), every text colour adjusted to a ' +
          'contrast of at least 4.5:1; without a usable logo the neutral palette ' +
          '(`source: "neutral"`).',
        response: { 200: DocumentPaletteSchema }
      }
    },
    // The accent was found once, when the logo was uploaded.
    async () => paletteForAccent(logoAccent(app.db))
  )

  app.get(
    '/public/logo',
    {
      config: { access: 'public' },
      schema: {
        tags: ['config'],
        summary: 'The band logo (no login); with ETag',
        response: {
          200: {
            description: 'PNG or JPEG image',
            content: {
              'image/png': { schema: Type.String({ format: 'binary' }) },
              'image/jpeg': { schema: Type.String({ format: 'binary' }) }
            }
          },
          304: NotModified,
          404: ErrorResponse
        }
      }
    },
    async (request, reply) => {
      const logo = findLogo(app.db)
      if (!logo) throw logoNotFound()
      reply.header('cache-control', PUBLIC_CACHE).header('etag', logo.etag)
      if (etagMatches(request.headers['if-none-match'], logo.etag)) {
        return reply.status(304).send(undefined as never)
      }
      // Buffers bypass the serializer; the schema above only documents the image.
      return reply.type(logo.mimeType).send(logo.data as unknown as string)
    }
  )

  await app.register(manifestRoutes)
  await app.register(setupRoutes, { dataDir: options.dataDir, backups: options.backups })
}
export default appConfigRoutes
