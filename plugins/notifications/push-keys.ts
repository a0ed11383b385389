import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createECDH } from 'node:crypto'
import { tightenMode } from '#src/db/client.js'
import { ConfigError } from '#src/config.js'

// The server's VAPID key pair (RFC 8292): made at the first start and kept in DATA_DIR, so the
// phones' subscriptions (made for the public key) stay valid across restarts and backups.

export interface VapidKeys {
  /** Base64url, an uncompressed P-256 point: what the browser subscribes with. */
  publicKey: string
  privateKey: string
}

export const VAPID_FILE = 'vapid-keys.json'

const isKeys = (value: unknown): value is VapidKeys =>
  typeof value === 'object' && value !== null &&
  /^[\w-]{87}$/.test(String((value as VapidKeys).publicKey)) &&
  /^[\w-]{43}$/.test(String((value as VapidKeys).privateKey))

/** The kept key pair, or a new one written with mode 0600 when there is none. */
export function ensureVapidKeys (dataDir: string): VapidKeys {
  const file = join(dataDir, VAPID_FILE)
  if (existsSync(file)) {
    tightenMode(file, 0o600)
    let kept: unknown
    try {
      kept = JSON.parse(readFileSync(file, 'utf8'))
    } catch {
      kept = null
    }
    if (isKeys(kept)) return { publicKey: kept.publicKey, privateKey: kept.privateKey }
    throw new ConfigError(
      `Invalid configuration:\n  ${file} holds no VAPID key pair. Restore it from your backup, ` +
        'or delete it to have new keys made (every phone then turns push notifications on again).'
    )
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  // As web-push's generateVAPIDKeys, without loading it at every start.
  const ecdh = createECDH('prime256v1')
  const publicKey = ecdh.generateKeys().toString('base64url')
  // The private scalar may come shorter than 32 bytes: padded, as the library does.
  const scalar = Buffer.from(ecdh.getPrivateKey().toString('hex').padStart(64, '0'), 'hex')
  const keys = { publicKey, privateKey: scalar.toString('base64url') }
  writeFileSync(file, JSON.stringify(keys) + '\n', { mode: 0o600, flag: 'wx' })
  chmodSync(file, 0o600)
  return keys
}

/**
 * Who the push services may contact about this server (the JWT's `sub`): the public https
 * address, else the From address of the mails.
 */
export function vapidSubject (publicUrl: string | undefined, smtpFrom: string): string {
  if (publicUrl?.startsWith('https://')) return publicUrl
  const address = /<([^>]+)>/.exec(smtpFrom)?.[1] ?? smtpFrom.trim()
  return `mailto:${address}`
}
