import { setImmediate as yieldTurn } from 'node:timers/promises'
import type { GigChartsType } from '#schemas/charts.js'

/** JSON made between two turns of the event loop: a few milliseconds of the main thread. */
export const CHARTS_JSON_PART_BYTES = 512 * 1024

/**
 * GET /gigs/{id}/charts as JSON, in parts with a turn of the event loop between them: at its cap
 * (8 MiB of charts) one serialization held every other request 25–35 ms, its bytes and digest as
 * long again. The entries (400 at most) go through the route's serializer (`serialize`); the
 * charts, `songs`, the schema's last property, are written here one after another, in the same
 * form (tested against the serializer).
 */
export async function * chartsJson (
  doc: GigChartsType,
  serialize: (doc: GigChartsType) => string
): AsyncGenerator<Buffer> {
  // `…,"songs":[]}` without its `]}`: the songs follow.
  const head = serialize({ ...doc, songs: [] })
  let part = head.slice(0, -2)
  let comma = ''
  for (const song of doc.songs) {
    part += `${comma}{"id":${song.id},"chart":${JSON.stringify(song.chart)}}`
    comma = ','
    if (part.length < CHARTS_JSON_PART_BYTES) continue
    yield Buffer.from(part)
    part = ''
    await yieldTurn()
  }
  yield Buffer.from(`${part}]}`)
}
