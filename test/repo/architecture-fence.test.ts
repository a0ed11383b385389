// The import rules of eslint.config.js, each shown a line that breaks it: a pattern that never
// matches (a gitignore `group` starting with `#` is a comment) lets a breach through silently.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { projectPath } from '#src/project-path.js'

// ESLint loads its configuration's plugins by plain Node resolution, which the test runner's
// TypeScript hook gets in the way of: every case is linted in one child process of plain Node.
const LINT_CASES = `
import { ESLint } from 'eslint'
const cases = JSON.parse(process.argv[1])
const eslint = new ESLint()
const found = []
for (const [file, line] of cases) {
  const [result] = await eslint.lintText(line + '\\nexport const used = x\\n', { filePath: file })
  found.push(result.messages.filter((m) => m.ruleId === 'no-restricted-imports')
    .map((m) => m.message))
}
console.log(JSON.stringify(found))
`

function restrictedImports (cases: Array<[string, string]>): string[][] {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', LINT_CASES,
    JSON.stringify(cases)], { cwd: projectPath('.'), encoding: 'utf8' })
  assert.equal(run.status, 0, run.stderr)
  return JSON.parse(run.stdout) as string[][]
}

const breaches: Array<[string, string, RegExp]> = [
  ['plugins/documents/fence.ts', "import { x } from '#plugins/gigs/repository.js'",
    /Another plugin's repository/],
  ['plugins/documents/fence.ts', "import { x } from '#plugins/gigs/charts-repository.js'",
    /Another plugin's repository/],
  ['src/repositories/fence.ts', "import { x } from '#plugins/users/repository.js'",
    /Another plugin's repository/],
  ['plugins/gigs/fence.ts', "import { x } from '#src/shared/limits.js'",
    /through #shared/],
  ['plugins/gigs/fence.ts', "import { x } from '../songs/routes.js'", /package imports|#src/],
  ['src/shared/fence.ts', "import { x } from '#src/config.js'", /Shared code/],
  ['src/shared/fence.ts', "import { x } from '#plugins/gigs/routes.js'", /Shared code/],
  ['src/shared/fence.ts', "import { x } from '#schemas/gigs.js'", /Shared code/],
  ['src/shared/fence.ts', "import { x } from 'node:fs'", /Shared code/],
  ['src/shared/fence.ts', "import { x } from 'drizzle-orm'", /Shared code/],
  ['src/shared/fence.ts', "import { Type } from '@sinclair/typebox'", /Shared code/],
  ['web/src/lib/fence.ts', "import { x } from '../../../src/shared/limits.js'", /\$shared/],
  ['plugins/gigs/fence.ts', "import { x } from 'drizzle-orm'", /#src\/db\/orm/],
  ['src/repositories/fence.ts', "import { x } from 'drizzle-orm/sqlite-core'", /#src\/db\/orm/],
  ['test/src/fence.test.ts', "import { x } from 'drizzle-orm/better-sqlite3'", /#src\/db\/orm/]
]

test('each import rule refuses a line that breaks it', () => {
  const found = restrictedImports(breaches.map(([file, line]) => [file, line]))
  breaches.forEach(([file, line, message], index) => {
    const messages = found[index]!
    assert.equal(messages.length, 1, `${file}: ${line} gave ${JSON.stringify(messages)}`)
    assert.match(messages[0]!, message, `${file}: ${line}`)
  })
})

const allowed: Array<[string, string]> = [
  ['plugins/gigs/fence.ts', "import { x } from './repository.js'"],
  ['plugins/documents/fence.ts', "import { x } from '#src/repositories/songs.js'"],
  ['plugins/gigs/fence.ts', "import { x } from '#shared/limits.js'"],
  ['src/shared/fence.ts', "import { x } from '#shared/limits.js'"],
  ['test/plugins/gigs/fence.ts', "import { x } from '#plugins/gigs/repository.js'"],
  ['plugins/gigs/fence.ts', "import { x } from '#src/db/orm.js'"],
  ['src/db/fence.ts', "import type { x } from 'drizzle-orm/sqlite-core'"]
]

test('the import rules let the allowed imports through', () => {
  const found = restrictedImports(allowed)
  allowed.forEach(([file, line], index) => {
    assert.deepEqual(found[index], [], `${file}: ${line}`)
  })
})
