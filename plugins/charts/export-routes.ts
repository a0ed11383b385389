import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { asc, inArray, isNotNull } from '#src/db/orm.js'
import { Readable } from 'node:stream'
import { promisify } from 'node:util'
import { crc32, deflateRaw } from 'node:zlib'
import { Zip, type ZipInputFile } from 'fflate'
import { ErrorResponse, IdParams } from '#schemas/common.js'
import { binaryFile } from '#schemas/documents.js'
import { songs } from '#src/db/schema.js'
import type { Db } from '#src/db/client.js'
import { notFound } from '#src/errors.js'
import { contentDisposition } from '#src/http/content-disposition.js'
import { uniqueNames } from '#src/chart-files/file-names.js'
import { transposeChordProText } from '#src/chart-files/transpose-text.js'
import { canonicalKey } from '#shared/keys.js'
import {
  chartsBySong, chartsTooLarge, gigChartBytes, readGigCharts
} from '#src/repositories/gig-charts.js'
import { MAX_GIG_CHART_BYTES } from '#schemas/charts.js'

const deflate = promisify(deflateRaw)
const ZipFile = binaryFile('application/zip', 'a zip archive of .cho files (UTF-8 names)')

interface ChartFile {
  name: string
  /** Made when its turn comes: a gig's transposed charts are never all held at once. */
  text: () => string
  changed: string
}

/** Charts of the whole songbook read per batch: at most this many 64 KiB charts held at once. */
const SONGBOOK_BATCH = 50

/**
 * A zip of charts, made as it is sent; each file dated by its song's last change, so an unchanged
 * songbook is too. Each file is compressed in libuv's thread pool, one after another: fflate's own
 * deflate took 20–50 ms of the main thread per 64 KiB chart, and a gig's 8 MiB in one zipSync
 * 280 ms.
 */
async function * zipOf (files: AsyncIterable<ChartFile> | Iterable<ChartFile>):
AsyncGenerator<Uint8Array> {
  let parts: Uint8Array[] = []
  // fflate reports an error only for a file added after the end, which this never does.
  const zip = new Zip((_error, data) => parts.push(data))
  const taken = () => {
    const out = parts
    parts = []
    return out
  }
  for await (const f of files) {
    const data = Buffer.from(f.text(), 'utf8')
    const compressed = await deflate(data, { level: 6 })
    // Already deflated (method 8): fflate writes the headers and the bytes as they are.
    const file: ZipInputFile = {
      filename: f.name,
      mtime: new Date(f.changed),
      compression: 8,
      size: data.length,
      crc: crc32(data)
    }
    zip.add(file)
    file.ondata!(null, compressed, true)
    yield * taken()
  }
  zip.end()
  yield * taken()
}

/**
 * Every song's chart in id order, read a batch at a time: a songbook of thousands of charts is
 * never held whole (nor its zip, which is sent as it is made).
 */
function * songbookFiles (db: Db): Generator<ChartFile> {
  const ids = db.select({ id: songs.id }).from(songs).where(isNotNull(songs.chart))
    .orderBy(asc(songs.id)).all().map((row) => row.id)
  const name = uniqueNames()
  for (let i = 0; i < ids.length; i += SONGBOOK_BATCH) {
    const rows = db
      .select({
        title: songs.title, artist: songs.artist, chart: songs.chart, updatedAt: songs.updatedAt
      })
      .from(songs).where(inArray(songs.id, ids.slice(i, i + SONGBOOK_BATCH)))
      .orderBy(asc(songs.id)).all()
    for (const r of rows) {
      // A chart removed since the ids were read is left out.
      if (r.chart === null) continue
      const chart = r.chart
      yield {
        name: name(r.artist ? `${r.title} - ${r.artist}` : r.title, '.cho'),
        text: () => chart,
        changed: r.updatedAt
      }
    }
  }
}

const zipReply = (files: AsyncIterable<ChartFile> | Iterable<ChartFile>) =>
  Readable.from(zipOf(files), { objectMode: false })

/** The charts as files: the whole songbook, or a gig's setlist as it will be played. */
const chartExportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/songs/charts.zip',
    {
      config: { access: 'member' },
      schema: {
        tags: ['songs'],
        summary: 'Every chart as a ChordPro file, "<Title> - <Artist>.cho", in one zip',
        description:
          'Each chart byte for byte as stored (also those of retired songs). File names are ' +
          'safe on Windows, macOS and Linux; two songs of one name get "(2)". Sent as it is ' +
          'made (no content-length), 50 charts read at a time.',
        response: { 200: ZipFile }
      }
    },
    async (_request, reply) => {
      return reply
        .type('application/zip')
        .header('content-disposition', contentDisposition('attachment', 'charts.zip'))
        .send(zipReply(songbookFiles(app.db)))
    }
  )

  app.get(
    '/gigs/:id/charts.zip',
    {
      config: { access: 'member' },
      schema: {
        tags: ['gigs'],
        summary: "The setlist's charts in running order, transposed as the entries say",
        description:
          'Files "01 - <Title> - <Artist>.cho" in running order; each chart moved by its ' +
          "entry's transposition (chords and `{key}`; the rest as written). Entries without a " +
          'chart are left out.',
        params: IdParams,
        response: {
          200: ZipFile,
          404: { ...ErrorResponse, description: 'Unknown gig' },
          413: { ...ErrorResponse, description: 'CHARTS_TOO_LARGE: over 8 MiB, counted per entry' }
        }
      }
    },
    async (request, reply) => {
      const notation = app.appSettings.get().chordNotation ?? 'german'
      // Each entry gets its own file: the chart text is counted per entry against the cap.
      const bytes = gigChartBytes(app.db, request.params.id, true)
      if (bytes !== undefined && bytes > MAX_GIG_CHART_BYTES) {
        throw chartsTooLarge(bytes, MAX_GIG_CHART_BYTES, 'The charts archive')
      }
      const gig = await readGigCharts(app.db, request.params.id, notation)
      if (!gig) throw notFound('gig', request.params.id)
      const charts = chartsBySong(gig)
      const width = Math.max(2, String(gig.charts.length).length)
      const name = uniqueNames()
      const now = app.clock().toISOString()
      const files = gig.charts.flatMap((entry) => {
        const chart = charts.get(entry.song.id)
        if (chart === undefined) return []
        const { title, artist, key } = entry.song
        const stem = `${String(entry.position).padStart(width, '0')} - ${title}` +
          (artist ? ` - ${artist}` : '')
        const text = () => transposeChordProText(chart, entry.transpose, notation,
          canonicalKey(key))
        return [{ name: name(stem, '.cho'), text, changed: now }]
      })
      return reply
        .type('application/zip')
        .header('content-disposition',
          contentDisposition('attachment', `gig-${request.params.id}-charts.zip`))
        .send(zipReply(files))
    }
  )
}
export default chartExportRoutes
