import closeWithGrace from 'close-with-grace'
import { buildApp } from './app.js'
import { ConfigError, loadConfig, loadDotEnv } from './config.js'

async function main () {
  loadDotEnv()
  const config = loadConfig()
  const app = await buildApp({ config })

  // SIGTERM/SIGINT (and an uncaught error) drain in-flight requests, end the event streams and
  // close the database; a second signal or 10 s without finishing exit at once with 1.
  closeWithGrace({ delay: 10_000, logger: app.log }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an uncaught error')
    else app.log.info({ signal }, 'shutting down: draining requests')
    await app.close()
  })

  // Connections the process has not accepted yet queue in the kernel: with Node's default of 511,
  // a burst of 3,000 (issue 14's replay) overflowed it and the kernel reset connections. The kernel
  // caps it at net.core.somaxconn (4096 on current Debian).
  await app.listen({ port: config.port, host: config.host, backlog: 4096 })
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message)
    process.exit(78) // EX_CONFIG
  }
  console.error(error)
  process.exit(1)
})
