import type { Environment } from 'vitest/environments'

// Node's globals, but modules transformed for the browser: Svelte compiles runes for the client
// (effects run, $effect.root works), as in the app. No DOM: the tests need none.
export default {
  name: 'node-client',
  viteEnvironment: 'client',
  setup: () => ({ teardown () {} })
} satisfies Environment
