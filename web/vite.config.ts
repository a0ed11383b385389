import { sveltekit } from '@sveltejs/kit/vite'
import { defineConfig } from 'vitest/config'
import { startChunks } from './chunks'
import { devProxy } from './dev-proxy'

export default defineConfig({
  plugins: [sveltekit()],
  build: {
    target: 'es2022',
    reportCompressedSize: false,
    // The modules every start evaluates as one chunk (chunks.ts, docs/offline.md).
    rollupOptions: { output: { manualChunks: startChunks() } }
  },
  // Unit tests sit beside the code they test (src/lib/**/x.test.ts, x.test.svelte.ts for runes in
  // the test itself), with Svelte's browser runtime (effects run) as in the app.
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.svelte.ts'],
    environment: './vitest-environment.ts'
  },
  // Svelte's browser runtime for the unit tests (its default export is the server's).
  ...(process.env.VITEST ? { resolve: { conditions: ['browser'] } } : {}),
  // Kit's server runtime (used at build time only, for the fallback page) needs cookie@0.6, nested
  // under @sveltejs/kit; the root node_modules holds Fastify's cookie@2. Bundling Kit resolves its
  // own copy.
  ssr: { noExternal: ['@sveltejs/kit', 'cookie'] },
  server: {
    // `npm run dev:web`: the API runs on :3000 (npm run dev); the app and the API then share one
    // origin (dev-proxy.ts).
    proxy: devProxy('http://127.0.0.1:3000')
  }
})
