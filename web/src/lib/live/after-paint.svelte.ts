/**
 * A flag that turns true one frame after `start()`: what can wait until the first paint of a
 * screen. The live page shows its times so (docs/offline.md): the first date formatter a page
 * makes loads the browser's calendar data, ~100 ms on a slow phone, and the current song is
 * painted before that.
 */
export class AfterPaint {
  done = $state(false)
  #started = false

  start (): void {
    if (this.#started) return
    this.#started = true
    requestAnimationFrame(() => setTimeout(() => {
      this.done = true
    }))
  }
}
