// The commit-msg hook (.githooks/commit-msg, scripts/check-commit-message.mjs): a subject of at
// most 72 characters and a blank line before the body, checked on a real commit in a scratch
// repository with the hook turned on as CONTRIBUTING.md says.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { projectPath } from '#src/project-path.js'

function check (message: string) {
  const dir = mkdtempSync(join(tmpdir(), 'bandstand-commit-message-'))
  try {
    writeFileSync(join(dir, 'COMMIT_EDITMSG'), message)
    return spawnSync(process.execPath, [projectPath('scripts', 'check-commit-message.mjs'),
      join(dir, 'COMMIT_EDITMSG')], { encoding: 'utf8' })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const subject = (length: number) => 'Keep the live view in step'.padEnd(length, '.')

test('a subject of up to 72 characters with the story in the body passes', () => {
  for (const message of [
    `${subject(72)}\n\nThe story: what changed, why, and what was measured.\n`,
    'Fix a typo\n',
    // git's template: comment lines and everything below the scissors are not the message.
    `# Please enter the commit message\n\n${subject(40)}\n# ${'x'.repeat(100)}\n` +
      `# ------------------------ >8 ------------------------\n${'y'.repeat(200)}\n`,
    // Unicode characters count once, however many bytes they take.
    `${'ü—'.repeat(36)}\n`,
    'Merge branch \'i40\' of a long branch name that nobody chose to be this long at all\n',
    `Revert "${subject(72)}"\n`
  ]) {
    const run = check(message)
    assert.equal(run.status, 0, `${message}\n${run.stderr}`)
  }
})

test('a longer subject, an empty message or a body without a blank line is refused', () => {
  const long = check(`${subject(73)}\n\nbody\n`)
  assert.equal(long.status, 1)
  assert.match(long.stderr, /the subject has 73 characters, at most 72/)
  assert.match(long.stderr, /--no-verify/)
  const empty = check('# only a comment\n\n')
  assert.equal(empty.status, 1)
  assert.match(empty.stderr, /the message is empty/)
  const wrapped = check('Say what the change does\nand carry on in the next line\n')
  assert.equal(wrapped.status, 1)
  assert.match(wrapped.stderr, /a blank line goes between the subject and the body/)
})

test('the hook refuses a long subject in a real commit and lets a short one through', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bandstand-commit-hook-'))
  try {
    const git = (...args: string[]) => spawnSync('git', ['-c', 'user.name=Test',
      '-c', 'user.email=test@example.org', '-c', `core.hooksPath=${projectPath('.githooks')}`,
      ...args], { cwd: dir, encoding: 'utf8' })
    assert.equal(git('init', '-q').status, 0)
    writeFileSync(join(dir, 'file.txt'), 'one\n')
    git('add', 'file.txt')
    const refused = git('commit', '-q', '-m', subject(90))
    assert.notEqual(refused.status, 0)
    assert.match(refused.stderr, /the subject has 90 characters/)
    const accepted = git('commit', '-q', '-m', subject(50), '-m', 'The story.')
    assert.equal(accepted.status, 0, accepted.stderr)
    assert.equal(git('log', '--format=%s').stdout.trim(), subject(50))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
