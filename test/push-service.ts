import { createServer, type IncomingHttpHeaders } from 'node:http'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import {
  createDecipheriv,
  createECDH,
  createPublicKey,
  hkdfSync,
  randomBytes,
  verify
} from 'node:crypto'

// A push service on this machine for the push tests: it keeps every request, answers with the
// status a test chooses, and a phone's keys made here decrypt what the server sent (RFC 8291,
// aes128gcm) and check its VAPID signature (RFC 8292) — independently of the library that sent it.

/** A phone's side of a subscription: its P-256 key pair and the auth secret. */
export function phoneKeys () {
  const ecdh = createECDH('prime256v1')
  const publicKey = ecdh.generateKeys()
  const auth = randomBytes(16)
  return {
    ecdh,
    auth,
    keys: { p256dh: publicKey.toString('base64url'), auth: auth.toString('base64url') }
  }
}
export type PhoneKeys = ReturnType<typeof phoneKeys>

const info = (label: string) =>
  Buffer.concat([Buffer.from(`Content-Encoding: ${label}`), Buffer.of(0)])

/** The plain text of an aes128gcm body (one record) for this phone. */
export function decryptPush (body: Buffer, phone: PhoneKeys): string {
  const salt = body.subarray(0, 16)
  const idLength = body[20]!
  const serverKey = body.subarray(21, 21 + idLength)
  const record = body.subarray(21 + idLength)
  const secret = phone.ecdh.computeSecret(serverKey)
  const keyInfo = Buffer.concat([
    Buffer.from('WebPush: info'), Buffer.of(0), phone.ecdh.getPublicKey(), serverKey
  ])
  const ikm = Buffer.from(hkdfSync('sha256', secret, phone.auth, keyInfo, 32))
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, info('aes128gcm'), 16))
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, info('nonce'), 12))
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce)
  decipher.setAuthTag(record.subarray(record.length - 16))
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)),
    decipher.final()])
  // The last record ends in 0x02 and any zero padding.
  let end = padded.length - 1
  while (padded[end] === 0) end--
  if (padded[end] !== 2) throw new Error('no last-record delimiter')
  return padded.subarray(0, end).toString('utf8')
}

/** The VAPID JWT's claims after its ES256 signature is checked with the key it names. */
export function verifyVapid (authorization: string | undefined, publicKey: string) {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(authorization ?? '')
  if (!match) throw new Error(`no VAPID authorization: ${authorization}`)
  const [jwt, k] = [match[1]!, match[2]!]
  if (k !== publicKey) throw new Error('signed with another key')
  const point = Buffer.from(k, 'base64url')
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33).toString('base64url')
    },
    format: 'jwk'
  })
  const [head, claims, signature] = jwt.split('.') as [string, string, string]
  const valid = verify('sha256', Buffer.from(`${head}.${claims}`),
    { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'))
  if (!valid) throw new Error('bad VAPID signature')
  return {
    header: JSON.parse(Buffer.from(head, 'base64url').toString()) as { alg: string },
    claims: JSON.parse(Buffer.from(claims, 'base64url').toString()) as {
      aud: string
      exp: number
      sub: string
    }
  }
}

export interface PushRequest {
  path: string
  headers: IncomingHttpHeaders
  body: Buffer
}

/**
 * The local push service. `answer` picks each request's status (default 201); `origin` is the
 * endpoints' base, e.g. `${origin}/phone-1`.
 */
export async function pushService (answer: (request: PushRequest) => number = () => 201) {
  const requests: PushRequest[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const request = { path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) }
      requests.push(request)
      res.statusCode = answer(request)
      res.end()
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}
