/**
 * `node:http` without its lazy exports. An ESM `import … from 'node:http'` builds the module's
 * namespace from every export, and on Node 24 that reads `http.WebSocket`, `CloseEvent` and
 * `MessageEvent`, which load Node's bundled undici (a 763 KB source, compiled at start): +13 MB
 * RSS for a server that never opens a WebSocket (docs/performance.md). The
 * CommonJS object from `getBuiltinModule` leaves those getters untouched, as Fastify's
 * `require('node:http')` does.
 */
export const nodeHttp = process.getBuiltinModule('node:http')
