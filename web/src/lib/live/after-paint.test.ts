import { afterEach, describe, expect, it, vi } from 'vitest'
import { AfterPaint } from './after-paint.svelte'

describe('AfterPaint', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    vi.useRealTimers()
  })

  it('is done after the next frame and the task after it, started once', () => {
    vi.useFakeTimers()
    const frames: FrameRequestCallback[] = []
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => {
      frames.push(callback)
      return frames.length
    })
    const flag = new AfterPaint()
    expect(flag.done).toBe(false)
    flag.start()
    flag.start()
    expect(frames.length).toBe(1)
    frames[0]!(0)
    // The frame's rendering comes between the frame callback and the task.
    expect(flag.done).toBe(false)
    vi.runAllTimers()
    expect(flag.done).toBe(true)
  })
})
