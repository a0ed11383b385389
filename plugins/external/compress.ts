import { constants } from 'node:zlib'
import fp from 'fastify-plugin'
import fastifyCompress from '@fastify/compress'

/**
 * gzip/br by Accept-Encoding for large JSON and documents. Small answers (live-mode polls, 304s)
 * stay uncompressed: below ~1 KB compression costs more CPU than it saves on the wire. Brotli runs
 * at a moderate quality because its default (11) is far too slow for a Raspberry Pi. Routes served
 * by the response cache say `compress: false`: it keeps compressed copies itself.
 */
export default fp(
  async (app) => {
    await app.register(fastifyCompress, {
      globalCompression: true,
      // No client of this API sends compressed bodies: no decompression hook on any route, and a
      // gzip body is not JSON (400 INVALID_JSON).
      globalDecompression: false,
      threshold: 1024,
      encodings: ['br', 'gzip'],
      brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
      zlibOptions: { level: 6 },
      // Documents that are already compressed gain nothing.
      customTypes: /^(application\/json|text\/|application\/vnd\.openxmlformats|application\/pdf)/
    })
  },
  { name: 'compress', fastify: '5.x' }
)
