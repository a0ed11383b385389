import { and, asc, count, eq, inArray, ne, or } from '#src/db/orm.js'
import type { Db } from '#src/db/client.js'
import { files, gigs, setlistEntries, songs, users, type FileRow } from '#src/db/schema.js'
import { writtenRow } from '#src/db/returning.js'
import type { FileOwner } from '#src/repositories/files.js'
import type { FileInfoType } from '#schemas/files.js'

export type FileWithUploader = FileRow & { uploader: string | null }

/** The name in a download's URL: the title's safe characters and the type's extension. */
export function urlName (title: string, extension: string): string {
  const base = title.normalize('NFKD').replace(/[^\w.-]+/g, '-').replace(/^[-.]+|[-.]+$/g, '')
  const stem = base.slice(0, 80) || 'file'
  return stem.toLowerCase().endsWith(`.${extension}`) ? stem : `${stem}.${extension}`
}

export function toFileInfo (row: FileWithUploader, extension: string): FileInfoType {
  return {
    id: row.id,
    songId: row.songId,
    gigId: row.gigId,
    kind: row.kind,
    title: row.title,
    fileName: row.fileName,
    mimeType: row.mimeType,
    bytes: row.bytes,
    sha256: row.sha256,
    url: `/files/${row.id}/${encodeURIComponent(urlName(row.title, extension))}`,
    uploadedBy: row.uploader,
    createdAt: row.createdAt
  }
}

const withUploader = (db: Db) =>
  db.select({ file: files, uploader: users.displayName }).from(files)
    .leftJoin(users, eq(users.id, files.uploadedBy))

const flatten = (row: { file: FileRow, uploader: string | null }): FileWithUploader =>
  ({ ...row.file, uploader: row.uploader })

const ownerWhere = (owner: FileOwner) =>
  'songId' in owner ? eq(files.songId, owner.songId) : eq(files.gigId, owner.gigId)

/** Whether the song or gig exists. */
export function ownerExists (db: Db, owner: FileOwner): boolean {
  const row = 'songId' in owner
    ? db.select({ id: songs.id }).from(songs).where(eq(songs.id, owner.songId)).get()
    : db.select({ id: gigs.id }).from(gigs).where(eq(gigs.id, owner.gigId)).get()
  return row !== undefined
}

export function listFiles (db: Db, owner: FileOwner): FileWithUploader[] {
  return withUploader(db).where(ownerWhere(owner)).orderBy(asc(files.kind), asc(files.id)).all()
    .map(flatten)
}

export function countFiles (db: Db, owner: FileOwner): number {
  return db.select({ n: count() }).from(files).where(ownerWhere(owner)).get()?.n ?? 0
}

export function findFile (db: Db, id: number): FileWithUploader | undefined {
  const row = withUploader(db).where(eq(files.id, id)).get()
  return row && flatten(row)
}

export function insertFile (db: Db, values: typeof files.$inferInsert): FileRow {
  return writtenRow(db.insert(files).values(values).returning())
}

export function deleteFile (db: Db, id: number): FileRow | undefined {
  return db.delete(files).where(eq(files.id, id)).returning().all()[0]
}

/**
 * What a gig's offline pack takes: the gig's own files and the sheets of the songs of its setlist;
 * recordings (of both) only when asked for. One statement.
 */
export function packFiles (db: Db, gigId: number, recordings: boolean): FileWithUploader[] {
  const setlistSongs = db.selectDistinct({ id: setlistEntries.songId }).from(setlistEntries)
    .where(eq(setlistEntries.gigId, gigId))
  const songFiles = recordings
    ? inArray(files.kind, ['sheet', 'recording'])
    : eq(files.kind, 'sheet')
  return withUploader(db)
    .where(or(
      and(eq(files.gigId, gigId), recordings ? undefined : ne(files.kind, 'recording')),
      and(inArray(files.songId, setlistSongs), songFiles)
    ))
    .orderBy(asc(files.id)).all().map(flatten)
}
