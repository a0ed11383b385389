// The load generator of bench/documents.ts, in its own process so that it never delays the
// /health probe: sends `count` document requests at once, each on its own connection (as many
// phones would), and prints how they were answered as JSON. Arguments: one JSON object
// { base, count, paths, cookies }; request i goes to paths[i % paths.length] with
// cookies[i % cookies.length].
import { fetchRaw } from '#test/fetch-raw.js'

const { base, count, paths, cookies } = JSON.parse(process.argv[2]!) as {
  base: string
  count: number
  paths: string[]
  cookies: string[]
}
const started = performance.now()
const statuses: Record<string, number> = {}
let lastAnswerMs = 0
await Promise.all(
  Array.from({ length: count }, async (_, i) => {
    const answer = await fetchRaw(base, paths[i % paths.length]!, cookies[i % cookies.length]!, {
      keepBody: false
    })
    statuses[answer.status] = (statuses[answer.status] ?? 0) + 1
    lastAnswerMs = performance.now() - started
  })
)
const cpu = process.cpuUsage()
const cpuSeconds = (cpu.user + cpu.system) / 1e6
console.log(JSON.stringify({ statuses, seconds: lastAnswerMs / 1000, cpuSeconds }))
