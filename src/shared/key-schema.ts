// The API's schema of a song's key, apart from keys.ts: the web app imports keys.ts, and a TypeBox
// call at the top level of a module cannot be dropped by the bundler, so it brought TypeBox's
// builder (12.4 KB gzip, evaluated on the live page's way to its first render) into the web app
// (docs/performance.md).
import { Type } from '@sinclair/typebox'
import { KEY_PATTERN } from './keys.js'

/** The API's key: canonical only, so that every client reads it the same way. */
export const KeySchema = Type.String({
  pattern: KEY_PATTERN,
  description:
    'pitch class + mode: tonic in English letters with # or b, then "m" for minor ' +
    '("Bb" = B♭ major, "Gm" = G minor, "F#m"); see docs/keys.md',
  examples: ['Bb', 'Gm', 'F#m']
})
