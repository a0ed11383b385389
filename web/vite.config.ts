import { sveltekit } from '@sveltejs/kit/vite'
import { defineConfig } from 'vitest/config'
import { startChunks } from './chunks'
import { devProxy } from './dev-proxy'

const core = (lines: number, branches: number, functions: number) =>
  ({ lines, statements: lines, branches, functions })

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
    environment: './vitest-environment.ts',
    // `npm run test:web` (CI): the app's TypeScript, components left to the browser stories and
    // messages (data) out. Thresholds a little under the figures measured; the gig-night core
    // (live show, overlay, outbox, gig pack, service worker) has its own, higher ones.
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      exclude: ['src/**/*.test.ts', 'src/**/*.test.svelte.ts', 'src/lib/i18n/{en,de}/**',
        'src/lib/offline/memory-caches.ts'],
      reporter: ['text-summary'],
      thresholds: {
        statements: 55,
        branches: 54,
        functions: 56,
        lines: 55,
        'src/service-worker/{pack,routes,shell}.ts': core(95, 95, 95),
        'src/lib/live/live-show.svelte.ts': core(93, 80, 93),
        'src/lib/live/overlay.ts': core(95, 90, 95),
        'src/lib/live/outbox.ts': core(95, 65, 90),
        'src/lib/offline/gig-pack.ts': core(86, 74, 78)
      }
    }
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
