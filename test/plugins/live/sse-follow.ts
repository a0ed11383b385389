// Following a gig's live view over a real HTTP stream (inject cannot stream): the event stream
// tests' reader and the gig they follow.
import assert from 'node:assert/strict'
import type { AddressInfo } from 'node:net'
import { userClient, type Client, type TestContext } from '#test/helpers.js'
import { createGig, insertSongs, putSetlist } from '#test/gig-fixtures.js'

export interface SseEvent {
  event: string
  id?: string
  data: any
}

/**
 * A real HTTP stream (inject cannot stream): reads SSE frames, skipping comments and retry lines.
 */
export async function openStream (
  base: string,
  path: string,
  c: Client | null,
  headers: Record<string, string> = {}
) {
  const controller = new AbortController()
  const res = await fetch(base + path, {
    headers: { ...(c ? { cookie: c.jar.header() } : {}), ...headers },
    signal: controller.signal
  })
  const reader = res.body!.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  let done = false
  const comments: string[] = []
  async function next (): Promise<SseEvent | null> {
    for (;;) {
      const end = buffer.indexOf('\n\n')
      if (end >= 0) {
        const frame = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        const fields: Record<string, string> = {}
        for (const line of frame.split('\n')) {
          if (line.startsWith(':')) comments.push(line)
          const i = line.indexOf(':')
          if (i > 0) fields[line.slice(0, i)] = line.slice(i + 1).trimStart()
        }
        if (fields.event) {
          return { event: fields.event, id: fields.id, data: JSON.parse(fields.data ?? 'null') }
        }
        continue
      }
      if (done) return null
      const chunk = await reader.read()
      if (chunk.done) done = true
      else buffer += decoder.decode(chunk.value, { stream: true })
    }
  }
  return { res, next, close: () => controller.abort(), comments }
}

export async function listen (ctx: TestContext): Promise<string> {
  await ctx.app.listen({ port: 0, host: '127.0.0.1' })
  return `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`
}

/** Waits (without a time limit of its own) until the condition holds. */
export async function eventually (condition: () => boolean) {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5))
}

/** The opaque part of a weak ETag: what the live stream sends as its event id. */
export const tagOf = (etag: unknown) => /^W\/"(.+)"$/.exec(String(etag))![1]

/** A gig with a setlist, an editor who changes it and a member who follows it. */
export async function followedGig (ctx: TestContext) {
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const member = await userClient(ctx.app, 'mia', 'member')
  const gig = await createGig(editor)
  const entries = (await putSetlist(editor, gig.id, [insertSongs(ctx.app, 3)])).sets[0]
    .entries as Array<{ id: number }>
  let n = 0
  const change = async () =>
    assert.equal(
      (
        await editor.put(`/gigs_lm/${gig.id}/`, {
          entryId: entries[n++ % entries.length]!.id,
          status: 'played'
        })
      ).statusCode,
      200
    )
  return { editor, member, gig, change }
}
