// First: an unsupported Node stops with one line before better-sqlite3 is loaded.
import './node-version.js'
import closeWithGrace from 'close-with-grace'
import { buildApp } from './app.js'
import { loadConfig, loadDotEnv, type Config } from './config.js'
import { lockDataDir } from '#src/storage/data-dir-lock.js'
import { APP_COMMIT, APP_VERSION } from './version.js'
import { actionableMessage, refuseForeignOwner } from './start-errors.js'

let config: Config | undefined

async function main () {
  loadDotEnv()
  config = loadConfig()
  refuseForeignOwner(config.dataDir,
    [process.execPath, ...process.execArgv, ...process.argv.slice(1)])
  // Before anything is opened: a second server on the same data would interleave two caches,
  // two schedulers and two first-admin creations.
  const unlock = lockDataDir(config.dataDir, 'server')
  const app = await buildApp({ config })
  app.addHook('onClose', async () => unlock())

  // SIGTERM/SIGINT (and an uncaught error) drain in-flight requests, end the event streams and
  // close the database; a second signal or 10 s without finishing exit at once with 1.
  closeWithGrace({ delay: 10_000, logger: app.log }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an uncaught error')
    else app.log.info({ signal }, 'shutting down: draining requests')
    await app.close()
  })

  // Connections the process has not accepted yet queue in the kernel: with Node's default of 511,
  // a burst of 3,000 (test/src/http/attack-replay.test.ts) overflowed it and the kernel reset
  // connections. The kernel caps it at net.core.somaxconn (4096 on current Debian).
  await app.listen({ port: config.port, host: config.host, backlog: 4096 })
  const { applied, total } = app.migrations
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host
  app.log.info(
    { version: APP_VERSION, commit: APP_COMMIT, dataDir: config.dataDir },
    `Bandstand ${APP_VERSION} (${APP_COMMIT}) at http://${host}:${config.port}/ — ` +
      `DATA_DIR ${config.dataDir}, ${applied} of ${total} migrations applied now` +
      (config.backup ? `, backups in ${config.backup.dir}` : '')
  )
}

main().catch((error: unknown) => {
  // A problem the operator can fix (configuration, a path's owner or mode, a full disk, a second
  // server): one line and EX_CONFIG; anything else is a bug and keeps its stack.
  const message = actionableMessage(error, config?.databaseFile)
  if (message) {
    console.error(message)
    process.exit(78) // EX_CONFIG
  }
  console.error(error)
  process.exit(1)
})
