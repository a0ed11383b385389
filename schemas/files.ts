import { Type, type Static } from '@sinclair/typebox'
import { FILE_KINDS } from '#shared/enums.js'
import { FILE_LIMITS } from '#shared/limits.js'
import { Id, Instant, LiteralUnion, StrictObject } from './common.js'

export const FileKind = LiteralUnion(FILE_KINDS, {
  description: 'sheet: a lead sheet or score (PDF); recording: a demo or take; document: ' +
    'contract, stage plot, notes; image: a photo'
})

/** The multipart fields beside the part `file` (validated by hand: they are no JSON body). */
export const FileFields = StrictObject({
  title: Type.String({ minLength: 1, maxLength: FILE_LIMITS.title }),
  kind: FileKind
})
export type FileFieldsType = Static<typeof FileFields>

export const FileInfo = Type.Object({
  id: Id,
  songId: Type.Union([Id, Type.Null()]),
  gigId: Type.Union([Id, Type.Null()]),
  kind: FileKind,
  title: Type.String(),
  fileName: Type.String({ description: 'the name the upload carried' }),
  mimeType: Type.String({ description: 'taken from the bytes, never from the name' }),
  bytes: Type.Integer(),
  sha256: Type.String({ description: 'the SHA-256 of the bytes, also the download’s ETag' }),
  url: Type.String({
    description: 'where to download it: /files/{id}/{name}, the name only for the browser'
  }),
  uploadedBy: Type.Union([Type.String(), Type.Null()], {
    description: 'display name of the uploader; null when the user was deleted'
  }),
  createdAt: Instant
})
export type FileInfoType = Static<typeof FileInfo>

export const FileList = Type.Object({
  files: Type.Array(FileInfo),
  usedBytes: Type.Integer({ description: "bytes all of the band's files take (once per content)" }),
  quotaBytes: Type.Integer({ description: 'FILES_QUOTA_MB in bytes' })
})

export const FileCreated = Type.Object({ id: Id, file: FileInfo })

export const FileIdParams = StrictObject({ id: Id })
export const FileDownloadParams = StrictObject({
  id: Id,
  name: Type.String({
    minLength: 1,
    maxLength: 255,
    description: 'any name: only the browser uses it (it never reaches the file system)'
  })
})
export const FileDownloadQuery = StrictObject({
  download: Type.Optional(Type.Literal('1', {
    description: '1: always as an attachment (a download), also for PDFs, audio and images'
  }))
})

export const PackFilesQuery = StrictObject({
  recordings: Type.Optional(Type.Boolean({ description: 'also the recordings (default false)' }))
})
export const PackFiles = Type.Object({
  files: Type.Array(FileInfo),
  bytes: Type.Integer({ description: 'what saving them takes' })
})
