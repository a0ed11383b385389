// History lives in git: no file of the project names the work session, stop or issue a line came
// from, in its text or its name. Such a number means nothing to the next reader; the commit that
// made the change says where it came from. Tests are named by the behaviour they check.
// Left out: the common-password list (data, `src/data/`) and the lockfile (generated); this
// file's examples are put together at run time, so it is checked like any other. CHANGELOG.md
// is checked too: a release note says what changed, not which issue asked for it.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { repoFiles } from '#test/repo-files.js'

const EXEMPT = [
  /^src\/data\//,
  /(^|\/)package-lock\.json$/
]

/** A word for the work (session, stop, issue) with a number after it, also run together. */
const NUMBERED = /\b(?:sessions?|stops?|issues?) #?\d+|\bissue[-_]?\d+/i
const NUMBERED_NAME = /(?:session|stop|issue)s?[-_ ]?\d+/i

test('no file names a session, stop or issue number in its text', () => {
  const found: string[] = []
  for (const { path, text } of repoFiles()) {
    if (EXEMPT.some((pattern) => pattern.test(path))) continue
    text.split('\n').forEach((line, index) => {
      const match = NUMBERED.exec(line)
      if (match) found.push(`${path}:${index + 1}: "${match[0]}"`)
    })
  }
  assert.deepEqual(found, [], 'say what the code does, not where it came from')
})

test('no file is named after a session, stop or issue', () => {
  const named = repoFiles().map((file) => file.path)
    .filter((path) => !EXEMPT.some((pattern) => pattern.test(path)) && NUMBERED_NAME.test(path))
  assert.deepEqual(named, [], 'name a file (a test above all) by its behaviour')
})

test('the patterns find what they are for and leave the domain words alone', () => {
  // Put together here, so that this file holds no such number itself.
  const n = (word: string, number: number, glue = ' ') => `${word}${glue}${number}`
  for (const line of [`// ${n('Session', 34)}: the mmap threshold`, `see ${n('stop', 4)}`,
    `(${n('issue', 28)} item 9)`, n('issue', 7, ' #'),
    `screenshot(page, \`${n('issue', 28, '')}-gig\`)`]) {
    assert.match(line, NUMBERED, line)
  }
  for (const line of ['the session ends after 30 days', 'a login session of 15 minutes',
    "'/floor/session-304'", 'stops after 5 s', 'the issue is 2 MB of heap']) {
    assert.doesNotMatch(line, NUMBERED, line)
  }
  assert.match(`test/web/web-${n('issue', 28, '')}.test.ts`, NUMBERED_NAME)
  assert.doesNotMatch('test/web/web-session.test.ts', NUMBERED_NAME)
})
