import { existsSync, readdirSync, realpathSync } from 'node:fs'
import { join, relative } from 'node:path'
import type { FastifyInstance, FastifyReply } from 'fastify'
import fastifyStatic from '@fastify/static'
import { ConfigError } from '#src/config.js'
import { errorBody } from '#src/errors.js'
import { projectPath } from '#src/project-path.js'

export interface WebAppOptions {
  enabled: boolean
  /** The built app (npm run build:web); defaults to dist/web. */
  root?: string
}

// Files under _app/immutable/ carry a content hash in their name: cached for a year. Everything
// else (index.html, favicon, version.json) is revalidated, so a new release reaches every phone at
// once.
const IMMUTABLE = /\/_app\/immutable\//
const APP_ROUTE = /^\/app(\/[^.]*)?$/

/** The first symlink below `dir` (its path), or null: the build is only real files and folders. */
export function findSymlink (dir: string): string | null {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isSymbolicLink()) return path
    if (entry.isDirectory()) {
      const inner = findSymlink(path)
      if (inner) return inner
    }
  }
  return null
}

/**
 * Whether `pathName` (below the root) names a file reached without any symlink: its real path is
 * the path itself. A file swapped for a link after the start is not followed (404).
 */
const realFileBelow = (realRoot: string) => (pathName: string) => {
  const path = join(realRoot, pathName)
  try {
    return realpathSync.native(path) === path
  } catch {
    return true // missing: the static handler answers 404 itself
  }
}

/**
 * The band's web app (web/, a SvelteKit single-page app) at /app/: the built files with long cache
 * for hashed assets, index.html for every app route (deep links such as /app/gigs/12), / redirects
 * to /app/. Same origin as the API, so the httpOnly cookie session just works. WEB_ENABLED=false:
 * none of it (404).
 */
export default async function webAppRoutes (app: FastifyInstance, options: WebAppOptions) {
  if (!options.enabled) return
  const root = options.root ?? projectPath('dist', 'web')
  // Hidden from the OpenAPI document: these are no API routes (and need no config.access: public).
  const schema = { hide: true }

  app.get('/', { schema }, (_request, reply) => reply.redirect('/app/', 302))

  if (!existsSync(`${root}/index.html`)) {
    app.log.warn(`web app not built (${root}/index.html missing): run npm run build`)
    app.get('/app/*', { schema }, (_request, reply) => {
      reply
        .status(503)
        .send(errorBody('WEB_APP_NOT_BUILT', 'the web app is not built: run npm run build'))
    })
    return
  }

  // The build is served as files, never through a link out of it (a link to /etc/passwd would be
  // served as one of the app's files; @fastify/static lists and follows links at start).
  const realRoot = realpathSync(root)
  const link = findSymlink(realRoot)
  if (link) {
    throw new ConfigError(
      `the web app build ${root} contains a symlink (${relative(realRoot, link)}): the server ` +
        'serves only real files; rebuild it (npm run build:web) or copy it without links'
    )
  }

  await app.register(fastifyStatic, {
    root: realRoot,
    prefix: '/app/',
    // One route per built file, found at start; unknown paths fall through to the route below.
    wildcard: false,
    index: false,
    // No directory listings, no dot files, no symlinks followed at request time either.
    list: false,
    serveDotFiles: false,
    allowedPath: realFileBelow(realRoot),
    preCompressed: true,
    cacheControl: false,
    setHeaders: (reply, path) => {
      reply.header(
        'cache-control',
        IMMUTABLE.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache'
      )
    }
  })

  // Every app route gets index.html; the app's router shows the screen (or its own "not found").
  // Paths with a file extension or under _app/ are files: a missing one is a real 404.
  const sendIndex = (_request: unknown, reply: FastifyReply) =>
    reply.header('cache-control', 'no-cache').sendFile('index.html')
  app.get('/app', { schema }, sendIndex)
  app.get('/app/*', { schema }, (request, reply) => {
    const path = request.url.split('?')[0]!
    if (!APP_ROUTE.test(path) || path.startsWith('/app/_app/')) return reply.callNotFound()
    return sendIndex(request, reply)
  })
}
