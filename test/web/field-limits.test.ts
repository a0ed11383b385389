import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import * as LIMITS from '#shared/limits.js'
import { projectPath } from '#src/project-path.js'

// A form's maxlength/minlength comes from src/shared/limits.ts (the constants the request schemas
// use), never a number typed in a component: a hand-typed limit drifts from the API's.
const WEB = projectPath('web', 'src')

function * components (dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) yield * components(path)
    else if (name.endsWith('.svelte')) yield path
  }
}

const LIMIT_ATTRIBUTE = /\b(maxlength|minlength)\s*=\s*("[^"]*"|'[^']*'|\{[^}]*\}|[^\s>]+)/gi

/** Every length attribute of the web app's components: file, line, attribute, value. */
function lengthAttributes () {
  const found: { where: string; attribute: string; value: string; source: string }[] = []
  for (const path of components(WEB)) {
    const source = readFileSync(path, 'utf8')
    for (const match of source.matchAll(LIMIT_ATTRIBUTE)) {
      const line = source.slice(0, match.index).split('\n').length
      const where = `${relative(WEB, path)}:${line}`
      found.push({ where, attribute: match[1] ?? '', value: match[2] ?? '', source })
    }
  }
  return found
}

test('no maxlength or minlength in web/src is a bare number: each names a shared limit', () => {
  const attributes = lengthAttributes()
  // The scan finds the forms' limits at all (a broken pattern would pass everything).
  assert.ok(attributes.length >= 40, `only ${attributes.length} length attributes found`)
  for (const { where, attribute, value, source } of attributes) {
    // Field.svelte passes its caller's value on; everything else names a constant.
    if (value === '{rest.maxlength}') continue
    const named = /^\{([A-Z_]+)\.(\w+)\}$/.exec(value)
    assert.ok(named, `${where}: ${attribute}=${value} is not a constant of $shared/limits`)
    const [, group = '', key = ''] = named
    const limits = (LIMITS as Record<string, Record<string, number> | undefined>)[group]
    assert.equal(typeof limits?.[key], 'number', `${where}: ${group}.${key} is no shared limit`)
    const imported = new RegExp(`import \\{[^}]*\\b${group}\\b[^}]*\\} from '\\$shared/limits'`)
    assert.match(source, imported, `${where}: ${group} is not imported from $shared/limits`)
  }
})

test('the scan catches a hand-typed limit in each spelling', () => {
  for (const bad of ['maxlength="100"', 'maxlength={100}', "minlength='3'", 'maxlength=100']) {
    const match = [...`<input ${bad} />`.matchAll(LIMIT_ATTRIBUTE)][0]
    assert.ok(match, bad)
    assert.doesNotMatch(match[2] ?? '', /^\{([A-Z_]+)\.(\w+)\}$/, bad)
  }
})
