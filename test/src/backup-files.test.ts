import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  unlinkSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { backupNow } from '#src/storage/backup.js'
import { createTestApp, json, userClient } from '#test/helpers.js'
import { insertSong } from '#test/gig-fixtures.js'
import { pdfFile, upload, wavFile } from '#test/file-fixtures.js'

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

test('a backup carries the files its snapshot names, copied once; pruning drops the ones no ' +
  'kept backup names; a restore serves them', async (t) => {
  const ctx = await createTestApp()
  const backupDir = mkdtempSync(join(tmpdir(), 'bandstand-backup-files-'))
  t.after(() => ctx.close().finally(() => rmSync(backupDir, { recursive: true, force: true })))
  const { app } = ctx
  const editor = await userClient(app, 'erika', 'editor')
  const songId = insertSong(app, 'Song')
  const sheet = pdfFile('Kept')
  const demo = wavFile(1)
  const sheetFile = json<{ id: number, file: { url: string } }>(
    await upload(editor, `/songs/${songId}/files`, sheet, { title: 'Sheet', kind: 'sheet' }))
  const demoFile = json<{ id: number }>(
    await upload(editor, `/songs/${songId}/files`, demo, { title: 'Demo', kind: 'recording' }))
  const inBackup = () => readdirSync(join(backupDir, 'files'), { recursive: true })
    .map(String).filter((name) => name.includes('/')).sort()
  const both = [sha(sheet), sha(demo)].map((hash) => `${hash.slice(0, 2)}/${hash}`).sort()
  const settings = { dir: backupDir, keep: 1 }

  const first = backupNow(app.sqlite, settings, new Date('2026-11-01T10:00:00Z'))
  assert.deepEqual(inBackup(), both)
  // The demo is deleted; a second backup still has both until the first one is pruned.
  assert.equal((await editor.delete(`/files/${demoFile.id}`)).statusCode, 204)
  const second = backupNow(app.sqlite, { ...settings, keep: 2 },
    new Date('2026-11-02T10:00:00Z'))
  assert.deepEqual(inBackup(), both)
  backupNow(app.sqlite, settings, new Date('2026-11-03T10:00:00Z'))
  assert.ok(!existsSync(first) && !existsSync(second))
  assert.deepEqual(inBackup(), [`${sha(sheet).slice(0, 2)}/${sha(sheet)}`])

  // Bytes removed by hand are not in the next backup either (the backup does not fail for them).
  const lost = pdfFile('Lost')
  await upload(editor, `/songs/${songId}/files`, lost, { title: 'Lost' })
  unlinkSync(join(ctx.dir, 'files', sha(lost).slice(0, 2), sha(lost)))
  backupNow(app.sqlite, { ...settings, keep: 2 }, new Date('2026-11-04T10:00:00Z'))
  assert.deepEqual(inBackup(), [`${sha(sheet).slice(0, 2)}/${sha(sheet)}`])

  // Restore as docs/operations.md says: the database and files/ into a new DATA_DIR.
  const latest = readdirSync(backupDir).filter((name) => name.endsWith('.db')).at(-1)
  const restoredDir = mkdtempSync(join(tmpdir(), 'bandstand-restored-'))
  mkdirSync(join(restoredDir, 'files'))
  cpSync(join(backupDir, latest!), join(restoredDir, 'bandstand.db'))
  cpSync(join(backupDir, 'files'), join(restoredDir, 'files'), { recursive: true })
  const restored = await createTestApp({
    dataDir: restoredDir,
    databaseFile: join(restoredDir, 'bandstand.db')
  })
  t.after(() => restored.close()
    .finally(() => rmSync(restoredDir, { recursive: true, force: true })))
  const member = await userClient(restored.app, 'max')
  const download = await member.get(sheetFile.file.url)
  assert.equal(download.statusCode, 200)
  assert.deepEqual(download.rawPayload, sheet)
})
