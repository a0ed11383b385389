import { test } from 'node:test'
import assert from 'node:assert/strict'
// @ts-expect-error -- plain JavaScript that Node 20 runs, without types
import { RUN_ALONE, testFiles } from '#scripts/run-tests.mjs'

test('the files run alone are test files the run finds (a rename would run them beside others)',
  () => {
    const files: string[] = testFiles()
    assert.ok(RUN_ALONE.length > 0)
    for (const file of RUN_ALONE as string[]) assert.ok(files.includes(file), file)
  })

test('a narrowed run finds only the files under the folder it names', () => {
  const files: string[] = testFiles('test/scripts')
  assert.ok(files.length > 0)
  assert.ok(files.every((file) => file.startsWith('test/scripts/') && file.endsWith('.test.ts')))
  assert.deepEqual(testFiles('test/scripts/run-tests.test.ts'), ['test/scripts/run-tests.test.ts'])
})
