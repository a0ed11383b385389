import type { FileInfo } from '$lib/api/types'

/** A song's sheet on the stage: the PDF the band uploaded for it as `sheet`. */
export type SongSheets = ReadonlyMap<number, FileInfo>

/**
 * Each setlist song's sheet from the gig pack's files (GET /gigs/{id}/pack-files): the first
 * PDF uploaded as a sheet (a song with a score and a horn part shows the score on the stage;
 * the others stay on the song page). Images and the gig's own files are never a song's sheet.
 */
export function sheetsBySong (files: readonly FileInfo[]): Map<number, FileInfo> {
  const sheets = new Map<number, FileInfo>()
  for (const file of files) {
    if (file.songId === null || file.kind !== 'sheet' || file.mimeType !== 'application/pdf') {
      continue
    }
    const kept = sheets.get(file.songId)
    if (!kept || file.id < kept.id) sheets.set(file.songId, file)
  }
  return sheets
}
