/** One Server-Sent Event as the stream carried it (comments such as heartbeats included). */
export interface StreamEvent {
  event: string
  data: string
  id: string | undefined
}

/**
 * Reads a text/event-stream body (the SSE wire format: `field: value` lines, a blank line ends an
 * event) and calls `onEvent` for each event, and `onActivity` for anything received, heartbeat
 * comments included. fetch instead of EventSource: a 401 goes through sessionFetch's silent
 * refresh, `Last-Event-ID` is ours to send, and a stalled stream can be aborted.
 */
export async function readEventStream (
  body: ReadableStream<Uint8Array>,
  onEvent: (event: StreamEvent) => void,
  onActivity: () => void
): Promise<void> {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  let event = ''
  let data: string[] = []
  let id: string | undefined
  for (;;) {
    const { value, done } = await reader.read()
    if (done) return
    onActivity()
    buffer += decoder.decode(value, { stream: true })
    let newline: number
    while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = buffer.slice(0, newline)
      buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1))
      if (line === '') {
        if (data.length > 0) onEvent({ event: event || 'message', data: data.join('\n'), id })
        event = ''
        data = []
        continue
      }
      if (line.startsWith(':')) continue
      const colon = line.indexOf(':')
      const field = colon < 0 ? line : line.slice(0, colon)
      const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '')
      if (field === 'event') event = text
      else if (field === 'data') data.push(text)
      else if (field === 'id') id = text
    }
  }
}
