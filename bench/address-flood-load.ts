// The load generator of bench/address-flood.ts, in its own process so that it never delays the
// member's probe: from each source address (127.0.0.N: Linux routes all of 127/8 to loopback),
// `perAddress` connections each send one request after the other until `seconds` have passed —
// wrong logins (`login`) or GET /health (`cheap`). Prints the answers' statuses as JSON.
// Argument: one JSON object { base, addresses, perAddress, mode, seconds }.
import { Agent, request } from 'node:http'

const { base, addresses, perAddress, mode, seconds } = JSON.parse(process.argv[2]!) as {
  base: string
  addresses: string[]
  perAddress: number
  mode: 'login' | 'cheap'
  seconds: number
}
const end = performance.now() + seconds * 1000
const statuses: Record<string, number> = {}
const body = JSON.stringify({ username: 'member0', password: 'a wrong password, long enough' })

function send (agent: Agent, localAddress: string): Promise<void> {
  return new Promise((resolve) => {
    const req = request(
      `${base}${mode === 'login' ? '/login' : '/health'}`,
      {
        method: mode === 'login' ? 'POST' : 'GET',
        agent,
        localAddress,
        headers: mode === 'login' ? { 'content-type': 'application/json' } : {}
      },
      (res) => {
        res.resume()
        res.on('end', () => {
          statuses[res.statusCode!] = (statuses[res.statusCode!] ?? 0) + 1
          resolve()
        })
        res.on('error', () => resolve())
      }
    )
    req.on('error', (error: NodeJS.ErrnoException) => {
      statuses[error.code ?? 'error'] = (statuses[error.code ?? 'error'] ?? 0) + 1
      // A refused or reset connection: a moment before the next try, as a client would.
      setTimeout(resolve, 10)
    })
    req.end(mode === 'login' ? body : undefined)
  })
}

await Promise.all(
  addresses.map(async (address) => {
    const agent = new Agent({ keepAlive: true, maxSockets: perAddress })
    await Promise.all(
      Array.from({ length: perAddress }, async () => {
        while (performance.now() < end) await send(agent, address)
      })
    )
    agent.destroy()
  })
)
console.log(JSON.stringify({ statuses }))
