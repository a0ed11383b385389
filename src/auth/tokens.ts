import { createHash, randomBytes } from 'node:crypto'

/** A random opaque token (256 bits unless told otherwise), URL-safe. */
export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url')

/** Tokens are stored only as hashes; SHA-256 suffices because they carry full entropy. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url')
