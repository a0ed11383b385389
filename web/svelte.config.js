import adapter from '@sveltejs/adapter-static'
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte'

/** @type {import('@sveltejs/kit').Config} */
const config = {
  preprocess: vitePreprocess(),
  compilerOptions: { runes: true },
  kit: {
    // A single-page app served by the API process at /app/ (plugins/web/routes.ts): every route
    // renders in the browser from the one fallback page; nothing is prerendered.
    adapter: adapter({ pages: '../dist/web', assets: '../dist/web', fallback: 'index.html' }),
    // Absolute asset URLs: the boot script moved out of index.html
    // (scripts/finish-web-build.mjs) must not depend on the URL of the file it lives in.
    paths: { base: '/app', relative: false },
    version: { name: 'bandstand' },
    // Registered by the app itself after the first screen (lib/offline/start-worker.ts), with the
    // update prompt; Kit's own registration would sit in the boot script.
    serviceWorker: { register: false },
    // $shared: code the server uses too (src/shared), free of Node and Fastify imports.
    alias: { $api: 'src/lib/api', $shared: '../src/shared' }
  }
}

export default config
