import type { Messages } from './index.svelte'

/**
 * The German catalogue as one chunk, loaded when German is chosen (index.svelte.ts). It lives
 * beside de/, not in it: every file in de/ is one area of messages.
 */
export default import.meta.glob<Messages>('./de/*.ts', { eager: true, import: 'default' })
