import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import multipart from '@fastify/multipart'
import { ErrorResponse, IdParams, NoContent } from '#schemas/common.js'
import {
  FileCreated,
  FileIdParams,
  FileList,
  PackFiles,
  PackFilesQuery
} from '#schemas/files.js'
import { ApiError, forbidden, notFound } from '#src/errors.js'
import { acceptedTypeOf } from '#src/files/sniff.js'
import {
  removeUnusedFiles,
  usedFileBytes,
  type FileOwner
} from '#src/repositories/files.js'
import { FILE_LIMITS } from '#shared/limits.js'
import { roleAtLeast } from '#shared/enums.js'
import {
  countFiles,
  deleteFile,
  findFile,
  insertFile,
  listFiles,
  ownerExists,
  packFiles,
  toFileInfo,
  type FileWithUploader
} from './repository.js'
import { MULTIPART_LIMITS, readUpload } from './upload.js'
import downloadRoutes from './download-routes.js'

const info = (row: FileWithUploader) => toFileInfo(row, acceptedTypeOf(row.mimeType).extension)

const owners = {
  songs: { key: 'songId', resource: 'song' },
  gigs: { key: 'gigId', resource: 'gig' }
} as const

/** Editors always; members add to songs when the band allows it (features.memberSongFiles). */
function mayAdd (app: FastifyInstance, request: FastifyRequest, owner: FileOwner): boolean {
  const role = request.user!.role
  if (roleAtLeast(role, 'editor')) return true
  return 'songId' in owner && app.appSettings.get().features.memberSongFiles === true
}

/**
 * The uploads in a scope of their own: only multipart bodies (streamed by @fastify/multipart,
 * registered here and not for the whole app); any other body is refused with 415 before it is
 * read, never parsed into memory.
 */
const uploadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.removeAllContentTypeParsers()
  await app.register(multipart, { limits: MULTIPART_LIMITS })

  for (const [path, { key, resource }] of Object.entries(owners)) {
    const ownerOf = (id: number) => ({ [key]: id }) as FileOwner
    const NotFound = { ...ErrorResponse, description: `${resource} not found` }

    app.post(`/${path}/:id/files`, {
      config: { access: 'member' },
      // The multipart parser streams the body; the limits are the file's (MULTIPART_LIMITS).
      bodyLimit: FILE_LIMITS.audioBytes + 64 * 1024,
      schema: {
        tags: ['files'],
        summary: `Upload a file to a ${resource} (multipart: file, title, kind)`,
        description:
          'multipart/form-data with the fields `title` and `kind` and the part `file`, streamed ' +
          'to disk. The type comes from the bytes: PDF, MP3, M4A/AAC, Ogg/Opus, FLAC, WAV, ' +
          'JPEG, PNG, WebP or UTF-8 text (HTML, SVG and anything else: 415). At most 20 MB ' +
          '(60 MB audio) and FILES_QUOTA_MB for all files together (413). Editors; members ' +
          'add to songs when the band allows it.',
        consumes: ['multipart/form-data'],
        params: IdParams,
        response: {
          201: FileCreated,
          403: ErrorResponse,
          404: NotFound,
          409: ErrorResponse,
          413: ErrorResponse,
          415: ErrorResponse,
          503: ErrorResponse
        }
      }
    }, async (request, reply) => {
      const owner = ownerOf(request.params.id)
      if (!mayAdd(app, request, owner)) {
        throw forbidden(`the editor role is required to add files to ${path}`)
      }
      if (!ownerExists(app.db, owner)) throw notFound(resource, request.params.id)
      if (countFiles(app.db, owner) >= FILE_LIMITS.perOwner) {
        throw new ApiError('LIMIT_REACHED',
          `a ${resource} has at most ${FILE_LIMITS.perOwner} files`)
      }
      const upload = await readUpload(app, request)
      // From here to the insert all is synchronous: no deletion of the same bytes runs between.
      const { received } = upload
      if (!app.files.store.has(received.sha256) &&
        usedFileBytes(app.db) + received.bytes > app.files.quotaBytes) {
        app.files.store.discard(received.tempPath)
        throw new ApiError('FILES_QUOTA_EXCEEDED',
          "the band's files would take more than FILES_QUOTA_MB: delete files no longer needed")
      }
      if (!ownerExists(app.db, owner)) {
        app.files.store.discard(received.tempPath)
        throw notFound(resource, request.params.id)
      }
      const isNew = app.files.store.commit(received)
      let row
      try {
        row = insertFile(app.db, {
          ...owner,
          kind: upload.fields.kind,
          title: upload.fields.title,
          fileName: upload.fileName,
          mimeType: upload.type.mimeType,
          sha256: received.sha256,
          bytes: received.bytes,
          uploadedBy: request.user!.id,
          createdAt: app.clock().toISOString()
        })
      } catch (error) {
        if (isNew) removeUnusedFiles(app.db, app.files.store, [received.sha256])
        throw error
      }
      const created = info(findFile(app.db, row.id)!)
      return reply.status(201).send({ id: row.id, file: created })
    })
  }
}

const fileRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(uploadRoutes)
  await app.register(downloadRoutes)

  for (const [path, { key, resource }] of Object.entries(owners)) {
    const ownerOf = (id: number) => ({ [key]: id }) as FileOwner
    const NotFound = { ...ErrorResponse, description: `${resource} not found` }

    app.get(`/${path}/:id/files`, {
      config: { access: 'member' },
      schema: {
        tags: ['files'],
        summary: `The files of a ${resource} (sheets, recordings, documents, images)`,
        params: IdParams,
        response: { 200: FileList, 404: NotFound }
      }
    }, async (request) => {
      const owner = ownerOf(request.params.id)
      if (!ownerExists(app.db, owner)) throw notFound(resource, request.params.id)
      return {
        files: listFiles(app.db, owner).map(info),
        usedBytes: usedFileBytes(app.db),
        quotaBytes: app.files.quotaBytes
      }
    })
  }

  app.get('/gigs/:id/pack-files', {
    config: { access: 'member' },
    schema: {
      tags: ['files'],
      summary: "The files a gig's offline pack takes: the gig's own and the setlist's sheets",
      description: 'Recordings (the gig\'s and the setlist songs\') only with `recordings=true`; ' +
        '`bytes` is what saving them takes, shown before saving.',
      params: IdParams,
      querystring: PackFilesQuery,
      response: { 200: PackFiles, 404: { ...ErrorResponse, description: 'gig not found' } }
    }
  }, async (request) => {
    const { id } = request.params
    if (!ownerExists(app.db, { gigId: id })) throw notFound('gig', id)
    const rows = packFiles(app.db, id, request.query.recordings === true)
    return { files: rows.map(info), bytes: rows.reduce((sum, row) => sum + row.bytes, 0) }
  })

  app.delete('/files/:id', {
    config: { access: 'member' },
    schema: {
      tags: ['files'],
      summary: 'Delete a file (its bytes when no other song or gig has the same)',
      description: 'Editors; a member the file of a song they uploaded when members may add.',
      params: FileIdParams,
      response: { 204: NoContent, 404: { ...ErrorResponse, description: 'File not found' } }
    }
  }, async (request, reply) => {
    const row = findFile(app.db, request.params.id)
    if (!row) throw notFound('file', request.params.id)
    const own = row.songId !== null && row.uploadedBy === request.user!.id &&
      mayAdd(app, request, { songId: row.songId })
    if (!roleAtLeast(request.user!.role, 'editor') && !own) throw forbidden('editor role required')
    deleteFile(app.db, row.id)
    removeUnusedFiles(app.db, app.files.store, [row.sha256])
    return reply.status(204).send(null)
  })
}
export default fileRoutes
