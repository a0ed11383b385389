import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { API_TYPES_FILE, generateApiTypes } from '#scripts/generate-api-types.js'

// The web app's API types are generated from the OpenAPI document of buildApp(); a schema change
// without `npm run api:types` fails here.
test('web/src/lib/api/schema.d.ts is what the schemas generate (npm run api:types)', async () => {
  const committed = readFileSync(API_TYPES_FILE, 'utf8')
  const generated = await generateApiTypes()
  assert.ok(
    committed === generated,
    'web/src/lib/api/schema.d.ts is stale: run `npm run api:types` and commit it'
  )
})

test('no API type is written by hand in web/: every shape comes from schema.d.ts', () => {
  const types = readFileSync(API_TYPES_FILE.replace('schema.d.ts', 'types.ts'), 'utf8')
  // Only aliases into `paths` (Ok<>, Body<>) and their members, no object literal types.
  for (const line of types.split('\n').filter((l) => l.startsWith('export type '))) {
    assert.match(line, /^export type \w+(<[^>]+>)? =( (Ok|Body)<|\s*$| \w+\[|$)/, line)
  }
})
