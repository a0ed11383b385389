import { createHash } from 'node:crypto'

/** A strong entity tag: the same bytes always give the same tag. */
export const strongEtag = (data: Buffer | string) =>
  `"${createHash('sha256').update(data).digest('base64url').slice(0, 27)}"`
