import { test } from 'node:test'
import assert from 'node:assert/strict'
import { workerExecArgv } from '#src/documents/pool.js'

// Under tsx a document worker gets only the resolution conditions and tsx's ESM hook, so it imports
// the same ESM build of src/ as the main thread (src/documents/pool.ts says why).
test('a worker under tsx: the conditions and tsx/esm, nothing a worker refuses', () => {
  const testRunner = [
    '--stack-trace-limit=10', '--conditions=bandstand-source', '--import', 'tsx', '--no-maglev'
  ]
  assert.deepEqual(workerExecArgv(testRunner), [
    '--conditions=bandstand-source', '--import', 'tsx/esm'
  ])
  const tsxCommand = [
    '--require', '/app/node_modules/tsx/dist/preflight.cjs',
    '--import', 'file:///app/node_modules/tsx/dist/loader.mjs', '--conditions=bandstand-source'
  ]
  assert.deepEqual(workerExecArgv(tsxCommand), [
    '--import', 'tsx/esm', '--conditions=bandstand-source'
  ])
  assert.deepEqual(workerExecArgv(['-C', 'bandstand-source', '--import=tsx']), [
    '-C', 'bandstand-source', '--import=tsx/esm'
  ])
  // Another loader is kept as it is; a flag without its value is dropped.
  assert.deepEqual(workerExecArgv(['--import=./hooks.mjs', '--import']), ['--import=./hooks.mjs'])
})
