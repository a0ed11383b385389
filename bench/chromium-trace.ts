/** One event of a Chromium trace (CDP `Tracing`), as the benches that read traces use it. */
export interface TraceEvent {
  name: string
  ph: string
  ts: number
  dur?: number
  /** Thread time: what the thread ran, without the time the (shared) machine took it away. */
  tdur?: number
  pid: number
  tid: number
  args?: { name?: string; data?: { type?: string } }
}
