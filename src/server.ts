import { buildApp } from './app.js'
import { ConfigError, loadConfig, loadDotEnv } from './config.js'

async function main () {
  loadDotEnv()
  let config
  try {
    config = loadConfig()
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message)
      process.exit(78) // EX_CONFIG
    }
    throw error
  }
  const app = await buildApp({ config })

  let closing = false
  const shutdown = async (signal: string) => {
    if (closing) return
    closing = true
    app.log.info({ signal }, 'shutting down: draining requests')
    const timer = setTimeout(() => {
      app.log.error('shutdown timed out; exiting')
      process.exit(1)
    }, 10_000)
    timer.unref()
    // stops accepting, waits for in-flight requests, closes event streams and the database
    await app.close()
    process.exit(0)
  }
  process.once('SIGTERM', () => {
    void shutdown('SIGTERM')
  })
  process.once('SIGINT', () => {
    void shutdown('SIGINT')
  })

  await app.listen({ port: config.port, host: config.host })
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
