import { createHash } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { Db } from '#src/db/client.js'
import { appLogo } from '#src/db/schema.js'

export type LogoMime = 'image/png' | 'image/jpeg'

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/**
 * The image type from the bytes themselves, never from the file name or Content-Type: a PNG starts
 * with its 8-byte signature followed by the IHDR chunk, a JPEG with the SOI marker and another
 * marker.
 */
export function sniffImage (data: Buffer): LogoMime | null {
  if (
    data.length >= 24 &&
    data.subarray(0, 8).equals(PNG_SIGNATURE) &&
    data.toString('latin1', 12, 16) === 'IHDR'
  ) {
    return 'image/png'
  }
  if (data.length >= 4 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) {
    return 'image/jpeg'
  }
  return null
}

/** A strong entity tag: the same bytes always give the same tag. */
export const strongEtag = (data: Buffer | string) =>
  `"${createHash('sha256').update(data).digest('base64url').slice(0, 27)}"`

export function findLogo (db: Db) {
  return db.select().from(appLogo).where(eq(appLogo.id, 1)).get()
}

export function hasLogo (db: Db): boolean {
  return db.select({ id: appLogo.id }).from(appLogo).where(eq(appLogo.id, 1)).get() !== undefined
}

/** The current logo's ETag without reading the image (null: no logo). */
export function logoEtag (db: Db): string | null {
  const row = db.select({ etag: appLogo.etag }).from(appLogo).where(eq(appLogo.id, 1)).get()
  return row?.etag ?? null
}

export function saveLogo (db: Db, mimeType: LogoMime, data: Buffer, now: Date) {
  const values = { mimeType, data, etag: strongEtag(data), updatedAt: now.toISOString() }
  return db
    .insert(appLogo)
    .values({ id: 1, ...values })
    .onConflictDoUpdate({ target: appLogo.id, set: values })
    .returning()
    .get()
}

export function deleteLogo (db: Db): boolean {
  return db.delete(appLogo).where(eq(appLogo.id, 1)).run().changes > 0
}
