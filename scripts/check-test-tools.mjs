// `npm test` (pretest): the tests run on Node 22 or 24, read PDFs with pdftotext (poppler-utils),
// drive Debian's Chromium and run the bench with wrk. Without them, stop at once with one line
// naming what is missing instead of failing test by test.
import { accessSync, constants } from 'node:fs'
import { delimiter, join } from 'node:path'

const onPath = (command) =>
  (process.env.PATH ?? '').split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, command), constants.X_OK)
      return true
    } catch {
      return false
    }
  })
const executable = (file) => {
  try {
    accessSync(file, constants.X_OK)
    return true
  } catch {
    return false
  }
}

// The tests load better-sqlite3 13, which crashes on Node 20 (no message, exit 139) test by test.
const major = Number(process.versions.node.split('.')[0])
if (major < 22) {
  console.error(
    `The tests need Node 22 or 24, this is Node ${process.versions.node}: ` +
      'PATH="$(bash scripts/fetch-node.sh 24):$PATH" npm test (docs/node-versions.md).'
  )
  process.exit(1)
}

const missing = []
if (!onPath('pdftotext')) missing.push('poppler-utils')
if (!executable(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium')) missing.push('chromium')
if (!onPath('wrk')) missing.push('wrk')
if (missing.length > 0) {
  console.error(
    `The tests need the Debian packages ${missing.join(' and ')}: run \`npm run test:all\` ` +
      `(installs them with apt-get, then tests) or \`apt-get install -y ${missing.join(' ')}\`.`
  )
  process.exit(1)
}
