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

  await app.listen({ port: config.port, host: config.host })
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message)
    process.exit(78) // EX_CONFIG
  }
  console.error(error)
  process.exit(1)
})
