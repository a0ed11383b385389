import { and, eq } from '#src/db/orm.js'
import type { Db } from '#src/db/client.js'
import { appLogo } from '#src/db/schema.js'
import type { LogoMime } from '#src/documents/logo.js'
import { writtenRow } from '#src/db/returning.js'
import { strongEtag } from '#src/http/etag.js'

export function findLogo (db: Db) {
  return db
    .select({ mimeType: appLogo.mimeType, data: appLogo.data, etag: appLogo.etag })
    .from(appLogo)
    .where(eq(appLogo.id, 1))
    .get()
}

export function hasLogo (db: Db): boolean {
  return db.select({ id: appLogo.id }).from(appLogo).where(eq(appLogo.id, 1)).get() !== undefined
}

/** The current logo's accent colour without reading the image (null: no logo or none found). */
export function logoAccent (db: Db): string | null {
  const row = db.select({ accent: appLogo.accent }).from(appLogo).where(eq(appLogo.id, 1)).get()
  return row?.accent ?? null
}

/** The upload as sent, with its copy and accent colour for documents (src/documents/logo.ts). */
export function saveLogo (
  db: Db,
  logo: { mimeType: LogoMime; data: Buffer; watermark: Buffer; accent: string | null },
  now: Date
) {
  const values = {
    ...logo,
    prepared: true,
    etag: strongEtag(logo.data),
    updatedAt: now.toISOString()
  }
  return writtenRow(
    db
      .insert(appLogo)
      .values({ id: 1, ...values })
      .onConflictDoUpdate({ target: appLogo.id, set: values })
      .returning()
  )
}

/** A logo stored by a version that did not prepare logos for documents yet. */
export function findUnpreparedLogo (db: Db) {
  return db
    .select({ data: appLogo.data, etag: appLogo.etag })
    .from(appLogo)
    .where(and(eq(appLogo.id, 1), eq(appLogo.prepared, false)))
    .get()
}

/** Stores the preparation of that logo (nulls: refused), unless it was replaced meanwhile. */
export function markLogoPrepared (
  db: Db,
  etag: string,
  prepared: { watermark: Buffer; accent: string | null } | null
): void {
  db.update(appLogo)
    .set({
      prepared: true,
      watermark: prepared?.watermark ?? null,
      accent: prepared?.accent ?? null
    })
    .where(and(eq(appLogo.id, 1), eq(appLogo.etag, etag)))
    .run()
}

export function deleteLogo (db: Db): boolean {
  return db.delete(appLogo).where(eq(appLogo.id, 1)).run().changes > 0
}

/** The logo's prepared copy and its tag, for the app icons (null: no usable logo). */
export function preparedLogo (db: Db): { etag: string; watermark: Buffer } | null {
  const row = db
    .select({ etag: appLogo.etag, watermark: appLogo.watermark })
    .from(appLogo)
    .where(eq(appLogo.id, 1))
    .get()
  return row?.watermark ? { etag: row.etag, watermark: row.watermark } : null
}
