import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readdirSync } from 'node:fs'
import Fastify from 'fastify'
import { projectPath } from '#src/project-path.js'
import sessionPlugin from '#plugins/app/session.js'
import clockPlugin from '#plugins/app/clock.js'
import errorsPlugin from '#plugins/app/errors.js'
import cookiePlugin from '#plugins/external/cookie.js'
import jwtPlugin from '#plugins/external/jwt.js'
import { systemClock } from '#src/clock.js'

interface PluginMeta {
  name?: string
  fastify?: string
  dependencies?: string[]
}
const metaOf = (plugin: unknown) =>
  (plugin as Record<symbol, PluginMeta | undefined>)[Symbol.for('plugin-meta')]

test('every cross-cutting plugin: a name, Fastify 5 and dependencies that exist', async () => {
  const names = new Map<string, string>()
  const dependencies: Array<[string, string]> = []
  for (const kind of ['app', 'external']) {
    for (const file of readdirSync(projectPath('plugins', kind))) {
      const module = (await import(`#plugins/${kind}/${file.replace(/\.ts$/, '.js')}`)) as {
        default: unknown
      }
      const meta = metaOf(module.default)
      assert.ok(meta?.name, `plugins/${kind}/${file} has a name`)
      assert.equal(meta.fastify, '5.x', `plugins/${kind}/${file} declares fastify 5.x`)
      assert.ok(!names.has(meta.name), `plugin name ${meta.name} is used once`)
      names.set(meta.name, `${kind}/${file}`)
      for (const dependency of meta.dependencies ?? []) dependencies.push([meta.name, dependency])
    }
  }
  for (const [plugin, dependency] of dependencies) {
    assert.ok(names.has(dependency), `${plugin} depends on ${dependency}, a plugin of the app`)
  }
})

test('a plugin registered before what it depends on fails at start, naming it', async () => {
  const app = Fastify({ logger: false })
  await app.register(errorsPlugin)
  await app.register(clockPlugin, { clock: systemClock })
  await app.register(cookiePlugin)
  await app.register(jwtPlugin, { secret: 'x'.repeat(40) })
  // No db plugin: the session check needs the database.
  await assert.rejects(
    async () => {
      await app.register(sessionPlugin, { cookieSecure: 'auto' })
    },
    (error: Error & { code?: string }) => {
      assert.equal(error.code, 'FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED')
      assert.match(error.message, /db/)
      return true
    }
  )
  await app.close()
})
