import { describe, expect, it } from 'vitest'
import type { FileInfo } from '$lib/api/types'
import { sheetsBySong } from './gig-sheets'

const file = (id: number, patch: Partial<FileInfo>): FileInfo => ({
  id,
  songId: 1,
  gigId: null,
  kind: 'sheet',
  title: `File ${id}`,
  fileName: `file-${id}.pdf`,
  mimeType: 'application/pdf',
  bytes: 1000,
  sha256: 'a'.repeat(64),
  url: `/files/${id}/file-${id}.pdf`,
  uploadedBy: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  ...patch
})

describe('sheetsBySong', () => {
  it("takes each song's first sheet PDF", () => {
    const sheets = sheetsBySong([
      file(7, { songId: 2 }),
      file(5, { songId: 2 }),
      file(3, { songId: 1 })
    ])
    expect([...sheets.entries()].map(([song, sheet]) => [song, sheet.id])).toEqual([[2, 5], [1, 3]])
  })

  it('leaves out recordings, images, text sheets and the gig’s own files', () => {
    const sheets = sheetsBySong([
      file(1, { kind: 'recording', mimeType: 'audio/mpeg' }),
      file(2, { kind: 'image', mimeType: 'image/png' }),
      file(3, { kind: 'sheet', mimeType: 'text/plain' }),
      file(4, { kind: 'document' }),
      file(5, { songId: null, gigId: 9 })
    ])
    expect(sheets.size).toBe(0)
  })
})
