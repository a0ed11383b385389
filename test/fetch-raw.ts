import { request as httpRequest } from 'node:http'

// Apart from test/seeded-server.ts, which imports the whole app: a flood's own process
// (bench/document-flood.ts) loads only this.

export interface Answer {
  status: number
  body: Buffer
  retryAfter?: string
}

/**
 * One request on its own connection (as 2,000 phones would open them). A connection the kernel
 * resets (a full listen backlog under a flood) is status 0 with the error code as body.
 */
export function fetchRaw (
  base: string,
  path: string,
  cookie: string,
  options: { method?: string; body?: Buffer; keepBody?: boolean } = {}
): Promise<Answer> {
  return new Promise((resolve) => {
    const req = httpRequest(
      `${base}${path}`,
      {
        method: options.method ?? 'GET',
        agent: false,
        headers: {
          cookie,
          ...(options.body ? { 'content-type': 'application/octet-stream' } : {})
        }
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => {
          if (options.keepBody !== false) chunks.push(chunk)
        })
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            body: Buffer.concat(chunks),
            retryAfter: res.headers['retry-after']
          })
        )
        res.on('error', (error: NodeJS.ErrnoException) =>
          resolve({ status: 0, body: Buffer.from(error.code ?? error.message) }))
      }
    )
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ status: 0, body: Buffer.from(error.code ?? error.message) }))
    req.end(options.body)
  })
}
