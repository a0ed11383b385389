import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { projectPath } from '#src/project-path.js'

// The documented start is npm start's: the same heap cap and memory flags, in the prose and in the
// systemd unit of docs/deployment.md (a bare `node dist/server.js` has neither).
test('docs/deployment.md starts the server with npm start\'s flags', () => {
  const script = (JSON.parse(readFileSync(projectPath('package.json'), 'utf8')) as {
    scripts: Record<string, string>
  }).scripts.start!
  // The launcher only chooses which Node runs the command (scripts/with-node.sh); a service
  // names its Node itself.
  assert.match(script, /bash scripts\/with-node\.sh --quiet /)
  const start = script.replace('bash scripts/with-node.sh --quiet ', '')
  const flags = start.split(/\s+/).filter((word) => word.startsWith('--'))
  assert.ok(flags.includes('--max-old-space-size=128'), start)
  const doc = readFileSync(projectPath('docs', 'deployment.md'), 'utf8')
  const prose = doc.replace(/\s+/g, ' ')
  assert.ok(prose.includes(`\`${start}\``), 'the prose names npm start\'s command line')
  const unit = /^ExecStart=\/usr\/bin\/node (.*)$/m.exec(doc)
  assert.ok(unit, 'a systemd unit')
  assert.deepEqual(unit[1]!.split(' ').filter((word) => word.startsWith('--')), flags)
  assert.match(doc, /^Environment=MALLOC_MMAP_THRESHOLD_=32768$/m)
})
