import multipart from '@fastify/multipart'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorResponse } from '#schemas/common.js'
import { ImportReport, type ImportReportType } from '#schemas/chart-files.js'
import { MAX_CHART_BYTES } from '#schemas/songs.js'
import { ApiError, badRequest } from '#src/errors.js'
import { CHART_FILE_LIMITS } from '#shared/limits.js'
import {
  chartsOfText, decodeText, extensionOf, isClutter, refusalByName, type ImportedChart
} from '#src/chart-files/chart-file.js'
import { readZip, ZipError, type Refusal } from '#src/chart-files/zip-read.js'
import { storeImportedCharts } from './import-repository.js'

const L = CHART_FILE_LIMITS
// A chart file is refused unread past this: 64 KiB of UTF-8 is at most this much in UTF-16.
const MAX_FILE_BYTES = 2 * MAX_CHART_BYTES + 2
const tooLarge = () => new ApiError('IMPORT_TOO_LARGE',
  `an import takes at most ${L.uploadFiles} files of ${L.uploadBytes} bytes together`)

/** The songbook import: many chart files and .zip archives of them in one request. */
const chartImportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Only this plugin takes multipart bodies; every limit explicit, the files streamed in.
  await app.register(multipart, {
    limits: {
      fileSize: L.uploadBytes,
      files: L.uploadFiles,
      // Form fields other than `files` are read and dropped: a few small ones.
      fields: 10,
      fieldSize: 1024,
      parts: L.uploadFiles + 10,
      fieldNameSize: 100,
      headerPairs: 100
    }
  })

  app.post(
    '/songs/import',
    {
      config: { access: 'editor' },
      bodyLimit: L.uploadBytes,
      schema: {
        tags: ['songs'],
        summary: 'Import a songbook: ChordPro and chords-over-lyrics files and .zip archives',
        description:
          'multipart/form-data, the files in the field `files` (.cho, .chopro, .chordpro, ' +
          '.crd, .pro, .txt, .zip; at most 500 files, 20 MiB together). Each chart becomes a ' +
          'song, or replaces the chart of the song with the same title and artist (`updated`); ' +
          'the rest is imported when a file is refused. One transaction. See ' +
          'docs/importing.md for the rules.',
        consumes: ['multipart/form-data'],
        response: {
          200: ImportReport,
          413: { ...ErrorResponse, description: 'Over 20 MiB or 500 files (IMPORT_TOO_LARGE)' },
          415: { ...ErrorResponse, description: 'Not multipart/form-data' }
        }
      }
    },
    async (request) => {
      if (!request.isMultipart()) {
        throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'send the files as multipart/form-data')
      }
      const uploads: { name: string; data: Buffer }[] = []
      let total = 0
      try {
        for await (const part of request.files()) {
          const data = await part.toBuffer()
          total += data.length
          if (total > L.uploadBytes) throw tooLarge()
          if (part.fieldname === 'files') uploads.push({ name: fileName(part.filename), data })
        }
      } catch (error) {
        if (error instanceof ApiError) throw error
        const status = (error as { statusCode?: number }).statusCode
        if (status === 413) throw tooLarge()
        // A body cut short or without its boundary: the client's fault, said in words.
        throw badRequest('BAD_REQUEST',
          `the multipart body could not be read (${(error as Error).message.slice(0, 100)})`)
      }
      if (uploads.length === 0) {
        throw badRequest('IMPORT_NO_FILES', 'no file in the multipart field `files`')
      }
      const notation = app.appSettings.get().chordNotation ?? 'german'
      const charts: ImportedChart[] = []
      const refused: ImportReportType['refused'] = []
      const take = (file: string, data: Buffer) => {
        const refusal = readChart(file, data, notation, charts)
        if (refusal) refused.push({ file, ...refusal })
      }
      for (const upload of uploads) {
        if (extensionOf(upload.name) !== '.zip') {
          const refusal = refusalByName(upload.name)
          if (refusal) refused.push({ file: upload.name, ...refusal })
          else take(upload.name, upload.data)
          continue
        }
        let entries
        try {
          entries = readZip(upload.data, {
            maxEntryBytes: MAX_FILE_BYTES,
            maxEntries: L.charts,
            maxTotalBytes: L.archiveExpandedBytes,
            refuse: refusalByName
          })
        } catch (error) {
          if (!(error instanceof ZipError)) throw error
          refused.push({ file: upload.name, reason: 'broken_archive', message: error.message })
          continue
        }
        for (const entry of entries) {
          if (isClutter(entry.name)) continue
          const file = `${upload.name}/${entry.name}`
          if (entry.data) take(file, entry.data)
          else if (entry.refused) refused.push({ file, ...entry.refused })
        }
      }
      const kept = charts.slice(0, L.charts)
      for (const chart of charts.slice(L.charts)) {
        refused.push({
          file: chart.file,
          reason: 'too_many',
          message: `an import takes at most ${L.charts} charts`
        })
      }
      const report = storeImportedCharts(app.db, kept, app.clock().toISOString())
      return { ...report, refused: [...refused, ...report.refused] }
    }
  )
}
export default chartImportRoutes

/** A name as the report shows it: the path a browser sent, without control characters. */
function fileName (name: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is replaced
  const clean = name.replace(/[\u0000-\u001f\u007f]/g, '_').replace(/\\/g, '/')
  return [...(clean || 'file')].slice(0, L.fileName).join('')
}

/** Adds the file's songs to `charts`, or tells why it has none. */
function readChart (file: string, data: Buffer, notation: 'english' | 'german',
  charts: ImportedChart[]): Refusal | null {
  const overLimit: Refusal = {
    reason: 'too_large',
    message: `a chart is at most ${MAX_CHART_BYTES} bytes of UTF-8 (64 KiB)`
  }
  if (data.length > MAX_FILE_BYTES) return overLimit
  const text = decodeText(data)
  if (typeof text !== 'string') return text
  const songs = chartsOfText(file, text, notation)
  if (songs.some((s) => Buffer.byteLength(s.chart, 'utf8') > MAX_CHART_BYTES)) return overLimit
  charts.push(...songs)
  return null
}
