// `npm test` (pretest): the tests read PDFs with pdftotext (poppler-utils) and drive Debian's
// Chromium. Without them, stop at once with one line naming the packages instead of failing test by
// test.
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

const missing = []
if (!onPath('pdftotext')) missing.push('poppler-utils')
if (!executable(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium')) missing.push('chromium')
if (missing.length > 0) {
  console.error(
    `The tests need the Debian packages ${missing.join(' and ')}: run \`npm run test:all\` ` +
      `(installs them with apt-get, then tests) or \`apt-get install -y ${missing.join(' ')}\`.`
  )
  process.exit(1)
}
