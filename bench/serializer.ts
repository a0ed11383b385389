/**
 * What serializing the big lists through their response schemas (fast-json-stringify, as Fastify
 * does) gains over JSON.stringify, on the real rows of the bench data set. Part of `npm run bench`;
 * also runs alone: `node --import tsx bench/serializer.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Type, type TSchema } from '@sinclair/typebox'
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler'
import { openDatabase } from '#src/db/client.js'
import { listSongs, toSongListItem } from '#plugins/songs/repository.js'
import { listGigs, toGig } from '#src/repositories/gigs.js'
import { Song } from '#schemas/songs.js'
import { Gig } from '#schemas/gigs.js'
import { seedBenchData } from './seed-bench-data.js'

type Serialize = (data: unknown) => string
const compileSchema = (schema: TSchema): Serialize =>
  (
    SerializerSelector() as unknown as (
      e: unknown,
      o: unknown
    ) => (r: { schema: unknown }) => Serialize
  )(
    {},
    {}
  )({ schema })

function median (fn: () => unknown, runs: number): number {
  for (let i = 0; i < 20; i++) fn()
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const start = performance.now()
    fn()
    times.push(performance.now() - start)
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!
}

export async function runSerializerBench (
  runs = Number(process.env.BENCH_DOC_RUNS ?? 200)
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bandstand-serializer-'))
  try {
    const file = join(dir, 'bandstand.db')
    await seedBenchData(file)
    const handle = openDatabase(file)
    const lists = [
      {
        name: 'GET /songs (500)',
        schema: Type.Array(Song),
        data: listSongs(handle.db, {}, 'de-DE').map(toSongListItem)
      },
      {
        name: 'GET /gigs (300)',
        schema: Type.Array(Gig),
        data: listGigs(handle.db, {}, '2000-01-01').map(toGig)
      }
    ]
    handle.close()
    console.log(
      '\n## List serialization (median of ' +
        runs +
        ' runs; once per database revision thanks to the response cache)'
    )
    for (const { name, schema, data } of lists) {
      const fast = compileSchema(schema)
      if (fast(data) !== JSON.stringify(data)) {
        console.log(
          `  note: ${name} output differs from JSON.stringify (schema drops or reorders fields)`
        )
      }
      const schemaMs = median(() => fast(data), runs)
      const plainMs = median(() => JSON.stringify(data), runs)
      console.log(
        `${name.padEnd(20)} response schema ${schemaMs.toFixed(2)} ms   JSON.stringify ` +
          `${plainMs.toFixed(2)} ms   (${(plainMs / schemaMs).toFixed(2)}×)`
      )
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runSerializerBench()
