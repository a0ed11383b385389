import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { ErrorResponse, NotModified } from '#schemas/common.js'
import { IconParams, WebAppManifest, type WebAppManifestType } from '#schemas/manifest.js'
import {
  ICONS,
  THEME_COLOUR,
  decodePrepared,
  renderIcon,
  type IconSpec
} from '#src/documents/app-icons.js'
import { documentLanguage, type DocumentLanguage } from '#src/documents/labels.js'
import { etagMatches } from '#plugins/app/response-cache.js'
import { preparedLogo } from './repository.js'
import { strongEtag } from '#src/http/etag.js'

/** Short enough to be revalidated soon after the band changes its name or logo. */
const CACHE = 'public, max-age=300'
/** Bumped when the icon drawing changes, so phones fetch the new pictures. */
const ICON_DRAWING = 1
const SHORT_NAME_MAX = 12

/** The install prompt's description, in the band's language (`lang` says which). */
export const MANIFEST_DESCRIPTION: Record<
  DocumentLanguage,
  (app: string, band: string) => string
> = {
  de: (app, band) => `${app}: Auftritte, Setlists und Live-Modus von ${band}`,
  en: (app, band) => `${app}: gigs, setlists and live mode of ${band}`
}

/** The home screen's label: the band's name, cut at a word (or at 12 characters) when longer. */
export function shortName (name: string): string {
  if (name.length <= SHORT_NAME_MAX) return name
  let cut = ''
  for (const word of name.split(/\s+/)) {
    const next = cut ? `${cut} ${word}` : word
    if (next.length > SHORT_NAME_MAX) break
    cut = next
  }
  return cut || name.slice(0, SHORT_NAME_MAX).trim()
}

/**
 * The installable web app's manifest and icons (no login: browsers fetch them without cookies).
 * Name and icons come from the band's configuration; the icons are drawn once per logo and kept
 * in memory (four small PNGs).
 */
const manifestRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const rendered = new Map<string, { etag: string; png: Buffer }>()
  let renderedFor: string | undefined

  const icon = (spec: IconSpec) => {
    const logo = preparedLogo(app.db)
    const source = `${logo?.etag ?? 'ours'}:${ICON_DRAWING}`
    if (source !== renderedFor) {
      rendered.clear()
      renderedFor = source
    }
    let answer = rendered.get(spec.file)
    if (!answer) {
      const png = renderIcon(spec, logo ? decodePrepared(logo.watermark) : null)
      answer = { etag: strongEtag(`${source}:${spec.file}`), png }
      rendered.set(spec.file, answer)
    }
    return answer
  }

  app.get(
    '/public/manifest.webmanifest',
    {
      config: { access: 'public' },
      schema: {
        tags: ['config'],
        summary: 'The web app manifest (no login): the band\'s name and icons; with ETag',
        description:
          'application/manifest+json. `name` is the band name of the app configuration, ' +
          '`short_name` the same cut to 12 characters; the icons are drawn from the band logo ' +
          'when there is one.',
        response: { 200: WebAppManifest, 304: NotModified }
      }
    },
    async (request, reply) => {
      const settings = app.appSettings.get()
      const icons = ICONS.filter((spec) => spec.file !== 'apple-touch-icon.png')
      const logoTag = preparedLogo(app.db)?.etag ?? 'ours'
      const version = strongEtag(`${logoTag}:${ICON_DRAWING}`).slice(1, 9)
      const body: WebAppManifestType = {
        id: '/app/',
        name: settings.bandName,
        short_name: shortName(settings.bandName),
        description: MANIFEST_DESCRIPTION[documentLanguage(settings.locale)](
          settings.appName,
          settings.bandName
        ),
        lang: settings.locale,
        start_url: '/app/',
        scope: '/app/',
        display: 'standalone',
        theme_color: THEME_COLOUR,
        background_color: THEME_COLOUR,
        // The logo's tag in the address: a new logo is a new icon URL, which makes installed apps
        // fetch it (browsers keep icons by URL).
        icons: icons.map((spec) => ({
          src: `/public/icons/${spec.file}?v=${version}`,
          sizes: `${spec.size}x${spec.size}`,
          type: 'image/png',
          purpose: spec.purpose
        }))
      }
      const etag = strongEtag(JSON.stringify(body))
      reply.header('cache-control', CACHE).header('etag', etag)
      if (etagMatches(request.headers['if-none-match'], etag)) {
        return reply.status(304).send(undefined as never)
      }
      return reply.type('application/manifest+json; charset=utf-8').send(body)
    }
  )

  app.get(
    '/public/icons/:file',
    {
      config: { access: 'public' },
      schema: {
        tags: ['config'],
        summary: 'An app icon (no login): PNG, from the band logo or our own; with ETag',
        params: IconParams,
        querystring: Type.Object({
          v: Type.Optional(
            Type.String({ maxLength: 16, description: 'the logo version (ignored; cache key)' })
          )
        }),
        response: {
          200: {
            description: 'PNG image',
            content: { 'image/png': { schema: Type.String({ format: 'binary' }) } }
          },
          304: NotModified,
          400: ErrorResponse
        }
      }
    },
    async (request, reply) => {
      const spec = ICONS.find((candidate) => candidate.file === request.params.file)!
      const { etag, png } = icon(spec)
      reply.header('cache-control', CACHE).header('etag', etag)
      if (etagMatches(request.headers['if-none-match'], etag)) {
        return reply.status(304).send(undefined as never)
      }
      // Buffers bypass the serializer; the schema above only documents the image.
      return reply.type('image/png').send(png as unknown as string)
    }
  )
}
export default manifestRoutes
