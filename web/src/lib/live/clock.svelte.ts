/** Date.now(), kept current every `everyMs` while `run` (e.g. only while a page is offline). */
export class Clock {
  now = $state(Date.now())
  #timer: ReturnType<typeof setInterval> | undefined

  constructor (private readonly everyMs: number) {}

  run (on: boolean): void {
    clearInterval(this.#timer)
    this.#timer = undefined
    this.now = Date.now()
    if (on) this.#timer = setInterval(() => (this.now = Date.now()), this.everyMs)
  }
}
