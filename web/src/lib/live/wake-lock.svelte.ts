/**
 * Keeps the screen on while the page is visible (Screen Wake Lock): a phone on a music stand must
 * not go dark mid-song. The browser drops the lock when the page is hidden; it is taken again when
 * the page is shown, and released when the page closes. Where the API is missing or refused (no
 * HTTPS, battery saver), `held` stays false and the page says so.
 */
export class ScreenAwake {
  held = $state(false)
  supported = typeof navigator !== 'undefined' && 'wakeLock' in navigator
  #lock: WakeLockSentinel | null = null
  #active = false
  #onVisibility = () => {
    if (document.visibilityState === 'visible') void this.#take()
    else void this.#release()
  }

  start (): void {
    if (!this.supported || this.#active) return
    this.#active = true
    document.addEventListener('visibilitychange', this.#onVisibility)
    if (document.visibilityState === 'visible') void this.#take()
  }

  stop (): void {
    this.#active = false
    document.removeEventListener('visibilitychange', this.#onVisibility)
    void this.#release()
  }

  async #take () {
    if (this.#lock && !this.#lock.released) return
    try {
      const lock = await navigator.wakeLock.request('screen')
      if (!this.#active) {
        await lock.release()
        return
      }
      this.#lock = lock
      this.held = true
      lock.addEventListener('release', () => {
        if (this.#lock === lock) this.held = false
      })
    } catch {
      this.held = false
    }
  }

  async #release () {
    const lock = this.#lock
    this.#lock = null
    this.held = false
    await lock?.release().catch(() => {})
  }
}
