import { describe, expect, it } from 'vitest'
import { ApiFailure } from '../api/client'
import { Resource } from './resource.svelte'

/** A promise and the functions that settle it, for loads that finish when a test says so. */
function deferred<T> () {
  let settle!: (value: T) => void
  const promise = new Promise<T>((resolve) => {
    settle = resolve
  })
  return { promise, resolve: settle }
}

/** Lets every pending promise callback run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('Resource', () => {
  it('loads at once: loading, then the data', async () => {
    const answer = deferred<number[]>()
    const resource = new Resource(() => answer.promise)
    expect(resource).toMatchObject({ loading: true, data: undefined, error: null })
    answer.resolve([1, 2])
    await settle()
    expect(resource.data).toEqual([1, 2])
    expect(resource.loading).toBe(false)
  })

  it('explains a failed load and keeps the old data on a failed reload', async () => {
    let fail = false
    const resource = new Resource(async () => {
      if (fail) throw new ApiFailure(404, 'GIG_NOT_FOUND', 'gig not found')
      return 'first'
    })
    await resource.reload()
    expect(resource.data).toBe('first')
    fail = true
    await resource.reload()
    expect(resource.data).toBe('first')
    expect(resource.error?.message).toBe('This gig does not exist (any more).')
    expect(resource.loading).toBe(false)
    fail = false
    await resource.reload()
    expect(resource.error).toBeNull()
  })

  it('keeps the answer of the latest load when an older one arrives after it', async () => {
    const answers = [deferred<string>(), deferred<string>()]
    let call = 0
    const resource = new Resource(() => answers[call++]!.promise)
    const second = resource.reload()
    answers[1]!.resolve('new')
    await second
    answers[0]!.resolve('old')
    await settle()
    expect(resource.data).toBe('new')
    expect(resource.loading).toBe(false)
  })

  it('a lazy one loads on start(), once', async () => {
    let calls = 0
    const resource = new Resource(
      async () => {
        calls += 1
        return calls
      },
      { lazy: true }
    )
    expect(calls).toBe(0)
    expect(resource.loading).toBe(true)
    resource.start()
    resource.start()
    await settle()
    expect(calls).toBe(1)
    expect(resource.data).toBe(1)
  })

  it('start() does nothing after the first load', async () => {
    let calls = 0
    const resource = new Resource(async () => ++calls)
    resource.start()
    await resource.reload()
    expect(calls).toBe(2)
  })
})
