import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { projectPath } from '#src/project-path.js'
import { ERROR_CODES } from '#src/error-codes.js'

// The web app's one message catalogue: web/src/lib/i18n/<language>/<area>.ts, used as
// t('<area>.<key>').
const I18N = projectPath('web', 'src', 'lib', 'i18n')
type Message = string | Record<string, string>

async function catalogue (language: string): Promise<Map<string, Message>> {
  const messages = new Map<string, Message>()
  for (const file of readdirSync(join(I18N, language)).filter((f) => f.endsWith('.ts'))) {
    const area = file.slice(0, -3)
    const module = (await import(pathToFileURL(join(I18N, language, file)).href)) as {
      default: Record<string, Message>
    }
    for (const [key, value] of Object.entries(module.default)) messages.set(`${area}.${key}`, value)
  }
  return messages
}

const placeholders = (message: Message) =>
  [
    ...new Set(
      (typeof message === 'string' ? [message] : Object.values(message)).flatMap((m) =>
        [...m.matchAll(/\{(\w+)\}/g)].map((x) => x[1])
      )
    )
  ].sort()

function * sources (dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) yield * sources(path)
    else if (/\.(svelte|ts)$/.test(name) && !path.includes(`${join('lib', 'i18n')}`)) yield path
  }
}

test('English and German have the same messages with the same placeholders', async () => {
  const en = await catalogue('en')
  const de = await catalogue('de')
  assert.ok(en.size > 100)
  assert.deepEqual([...de.keys()].sort(), [...en.keys()].sort())
  for (const [key, message] of en) {
    assert.deepEqual(placeholders(de.get(key)!), placeholders(message), key)
    assert.equal(typeof de.get(key), typeof message, `${key}: plural forms in both or neither`)
  }
})

test('every message key the app uses exists (dynamic keys: one key with the prefix)', async () => {
  const en = await catalogue('en')
  const used = new Set<string>()
  const prefixes = new Set<string>()
  for (const file of sources(projectPath('web', 'src'))) {
    const code = readFileSync(file, 'utf8')
    for (const match of code.matchAll(/\bt\(\s*'([\w.]+)'/g)) used.add(match[1]!)
    for (const match of code.matchAll(/\bt\(\s*`([\w.]+)\$\{/g)) prefixes.add(match[1]!)
    // Keys passed around as values (the login notice, error keys of form.invalid).
    for (const match of code.matchAll(/'((?:session|errors|songs|surveys|admin|reset|rehearsals|stats)\.[\w.]+)'/g)) {
      used.add(match[1]!)
    }
  }
  assert.ok(used.size > 100)
  const missing = [...used].filter((key) => !en.has(key) && !key.startsWith('errors.status'))
  assert.deepEqual(missing, [], 'keys used in web/src but missing from the catalogue')
  for (const prefix of prefixes) {
    assert.ok(
      [...en.keys()].some((key) => key.startsWith(prefix)),
      `a key starting with ${prefix}`
    )
  }
})

test('the error catalogue covers every error code the API sends', async () => {
  const en = await catalogue('en')
  // The API's one catalogue of codes (src/error-codes.ts): a new code fails here until it has a
  // message.
  const codes = new Set<string>(Object.keys(ERROR_CODES))
  const missing = [...codes].filter((code) => !en.has(`errors.${code}`))
  assert.deepEqual(missing, [], 'error codes without a message')
})
