// The live page's taps end to end without a browser: the real API client and outbox rules, the
// server a stubbed fetch, the feed a stand-in whose view the test sets, the outbox in memory.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { LiveEntry, LiveView, SongListItem } from '$lib/api/types'
import { LiveShow } from './live-show.svelte'
import type { Queued } from './outbox'

const outbox = vi.hoisted(() => {
  // The API client takes its base URL from the page's location when it loads.
  globalThis.location = { origin: 'https://band.example' } as Location
  return new Map<string, Queued>()
})

vi.mock('./outbox', async (original) => {
  const real = await original<typeof import('./outbox')>()
  return {
    ...real,
    ...real.createOutbox({
      byGig: async (gigId) => [...outbox.values()].filter((r) => r.gigId === gigId),
      put: async (record) => {
        outbox.set(record.id, record)
      },
      delete: async (id) => {
        outbox.delete(id)
      }
    })
  }
})

vi.mock('./live-feed.svelte', () => ({
  LiveFeed: class {
    view = $state<LiveView | null>(null)
    fresh = $state(true)
    start () {}
    stop () {}
    refresh = vi.fn()
    show = vi.fn((view: LiveView) => {
      this.view = view
    })
  }
}))

const entry = (id: number, status: LiveEntry['status'] = 'planned'): LiveEntry => ({
  id,
  setId: 1,
  songId: id,
  song: null,
  title: `Song ${id}`,
  notes: null,
  transpose: 0,
  capo: null,
  plannedStart: '20:00',
  durationSeconds: 200,
  customDurationSeconds: null,
  status,
  inserted: false,
  rating: null
})

const view = (version: number, entries: LiveEntry[]): LiveView => ({
  gig: {} as LiveView['gig'],
  version,
  current: entries.find((e) => e.status === 'planned') ?? null,
  currentSince: null,
  sets: [{
    id: 1,
    name: 'Set 1',
    breakAfterSeconds: 0,
    customBreakAfterSeconds: null,
    start: '20:00',
    end: '21:00',
    durationSeconds: 3600,
    entries
  }],
  totalSeconds: 0,
  progress: { planned: 0, played: 0, skipped: 0 }
})

interface Sent {
  method: string
  path: string
  body: Record<string, unknown>
}

/** The server: each request noted, answered by `answer` (a rejection is no network). */
function server (answer: (sent: Sent) => Promise<Response> | Response) {
  const sent: Sent[] = []
  vi.stubGlobal('fetch', async (request: Request) => {
    const body = request.body ? (await request.json()) as Record<string, unknown> : {}
    const one = { method: request.method, path: new URL(request.url).pathname, body }
    sent.push(one)
    return answer(one)
  })
  return sent
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

const offline = () => Promise.reject(new TypeError('Failed to fetch'))

function stage (entries = [entry(1, 'played'), entry(2), entry(3)], version = 4) {
  const show = new LiveShow(1)
  show.feed.view = view(version, entries)
  return show
}

/** Lets the outbox's promises and the sends behind them run. */
const settleDown = () => vi.advanceTimersByTimeAsync(0)

beforeEach(() => {
  vi.useFakeTimers()
  outbox.clear()
})

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

describe('a tap', () => {
  it('shows at once, is sent with its version and key, and leaves the outbox', async () => {
    const sent = server(() => json({ version: 5, entry: {} }))
    const show = stage()
    show.tap(show.state!.current!, { status: 'played' }, 'Played')
    expect(show.state!.current!.id).toBe(3)
    expect(show.state!.unconfirmed).toEqual([2])
    await settleDown()
    expect(sent).toEqual([{
      method: 'PUT',
      path: '/gigs_lm/1/',
      body: {
        entryId: 2, status: 'played', songId: 2, version: 4, idempotencyKey: expect.any(String)
      }
    }])
    expect(outbox.size).toBe(0)
    // Answered: the view on its way (a refresh asked for it) will have it.
    expect(show.feed.refresh).toHaveBeenCalled()
    expect(show.late).toBe(0)
    expect(show.state!.current!.id).toBe(3)
    show.feed.view = view(5, [entry(1, 'played'), entry(2, 'played'), entry(3)])
    expect(show.state!.unconfirmed).toEqual([])
    expect(show.pending).toHaveLength(1)
    show.tap(show.state!.current!, { status: 'skipped' }, 'Skipped')
    // The answered tap the view has now is dropped as the next is queued.
    expect(show.pending).toHaveLength(1)
  })

  it('taps go one at a time, oldest first, each made on the version before it', async () => {
    const sent = server((one) => json({ version: (one.body.version as number) + 1, entry: {} }))
    const show = stage()
    show.tap(entry(2), { status: 'played' }, 'Played')
    show.tap(entry(3), { status: 'played' }, 'Played')
    show.tap(entry(2), { rating: 3 }, 'Rated')
    await settleDown()
    expect(sent.map((s) => [s.body.entryId, s.body.version])).toEqual([[2, 4], [3, 5], [2, 6]])
    expect(outbox.size).toBe(0)
  })

  it('without a network stays queued, shown as late; sent once the server is back', async () => {
    let reachable = false
    const sent = server(() => (reachable ? json({ version: 5, entry: {} }) : offline()))
    const show = stage()
    show.tap(entry(2), { status: 'played' }, 'Played')
    await settleDown()
    expect(outbox.size).toBe(1)
    expect(show.late).toBe(1)
    expect(show.state!.current!.id).toBe(3)
    reachable = true
    await vi.advanceTimersByTimeAsync(3_000)
    expect(outbox.size).toBe(0)
    expect(show.late).toBe(0)
    expect(sent.length).toBeGreaterThanOrEqual(2)
    show.stop()
  })

  it('a stalled server: shown as late after 5 s, done once it answers', async () => {
    let answer: (response: Response) => void = () => {}
    server(() => new Promise<Response>((resolve) => {
      answer = resolve
    }))
    const show = stage()
    show.tap(entry(2), { status: 'played' }, 'Played')
    await vi.advanceTimersByTimeAsync(4_999)
    expect(show.late).toBe(0)
    await vi.advanceTimersByTimeAsync(1)
    expect(show.late).toBe(1)
    answer(json({ version: 5, entry: {} }))
    await settleDown()
    expect(show.late).toBe(0)
    expect(outbox.size).toBe(0)
  })

  it('refused (another editor changed it first): taken back and said, for a while', async () => {
    server(() => json({ code: 'LIVE_VERSION_CONFLICT', message: 'stale', statusCode: 409 }, 409))
    const show = stage()
    show.tap(entry(2), { status: 'played' }, 'Played')
    await settleDown()
    expect(show.pending).toEqual([])
    expect(outbox.size).toBe(0)
    expect(show.state!.current!.id).toBe(2)
    expect(show.failure).toMatchObject({ what: 'Played: Song 2' })
    await vi.advanceTimersByTimeAsync(12_000)
    expect(show.failure).toBe(null)
  })

  it('a 503 is the server\'s refusal; a 502 or 504 is no answer (queued)', async () => {
    let status = 503
    server(() => json({ code: 'UNAVAILABLE', message: 'storage' }, status))
    const show = stage()
    show.tap(entry(2), { status: 'played' }, 'Played')
    await settleDown()
    expect(show.failure).not.toBe(null)
    expect(outbox.size).toBe(0)
    status = 502
    show.tap(entry(2), { status: 'played' }, 'Played')
    await settleDown()
    expect(outbox.size).toBe(1)
    show.stop()
  })
})

describe('after a reload', () => {
  it('the outbox\'s taps are pending again (late) and sent', async () => {
    const sent = server(() => json({ version: 5, entry: {} }))
    const record: Queued = {
      kind: 'tap',
      entryId: 2,
      patch: { status: 'played' },
      id: 'key-1',
      gigId: 1,
      seq: 1,
      madeOn: 4,
      what: 'Played: Song 2'
    }
    outbox.set(record.id, record)
    outbox.set('other', { ...record, id: 'other', gigId: 9 })
    const show = stage()
    show.start()
    await settleDown()
    expect(sent.map((s) => s.body.idempotencyKey)).toEqual(['key-1'])
    expect([...outbox.keys()]).toEqual(['other'])
    show.stop()
  })

  it('what the phone knows last: the server\'s view with its answered taps', async () => {
    server(() => json({ version: 5, entry: {} }))
    const show = stage()
    expect(show.lastKnown()).toEqual(show.feed.view)
    show.tap(entry(2), { status: 'played' }, 'Played')
    // Not answered yet: the outbox keeps it, not the offline copy.
    expect(show.lastKnown()!.current!.id).toBe(2)
    await settleDown()
    expect(show.lastKnown()!.current!.id).toBe(3)
    show.feed.fresh = false
    expect(show.lastKnown()).toBe(null)
  })
})

describe('an unplanned song', () => {
  const song = { id: 50, title: 'Proud Mary', durationSeconds: 180 } as SongListItem

  it('goes after the current entry; the server\'s new entry replaces it', async () => {
    const sent = server(() => json({ ...entry(60), inserted: true }, 201))
    const show = stage()
    expect(show.insert(song, 'Added')).toBe(true)
    const placeholder = -show.pending[0]!.key
    expect(show.state!.view.sets[0]!.entries.map((e) => e.id)).toEqual([1, 2, placeholder, 3])
    await settleDown()
    expect(sent[0]).toMatchObject({
      method: 'POST', path: '/gigs_lm/1/insert', body: { songId: 50, setId: 1, afterEntryId: 2 }
    })
    expect(show.pending[0]).toMatchObject({ entryId: 60 })
    expect(show.feed.refresh).toHaveBeenCalled()
  })

  it('a replay answered with the view finds its entry, or nothing when it was undone', async () => {
    const made = { ...entry(61), songId: 50, inserted: true }
    const withIt = view(6, [entry(1, 'played'), entry(2), made])
    let answer = withIt
    server(() => json(answer))
    const show = stage()
    show.insert(song, 'Added')
    await settleDown()
    expect(show.pending[0]).toMatchObject({ entryId: 61 })
    answer = view(7, [entry(1, 'played'), entry(2)])
    show.insert(song, 'Added')
    await settleDown()
    expect(show.pending.map((p) => p.kind === 'insert' && p.entryId)).toEqual([61])
  })

  it('needs a view to go into', () => {
    const show = new LiveShow(1)
    expect(show.insert(song, 'Added')).toBe(false)
  })
})

describe('undo and make current', () => {
  it('wait for this phone\'s taps, then show the server\'s answer', async () => {
    let reachable = false
    const sent = server((one) => one.path.endsWith('/undo') || one.path.endsWith('/current')
      ? json(view(9, [entry(1, 'played'), entry(2), entry(3)]))
      : reachable ? json({ version: 5, entry: {} }) : offline())
    const show = stage()
    show.tap(entry(2), { status: 'played' }, 'Played')
    await settleDown()
    await show.undo('Undo')
    expect(sent.some((s) => s.path.endsWith('/undo'))).toBe(false)
    reachable = true
    await vi.advanceTimersByTimeAsync(3_000)
    show.feed.view = view(5, [entry(1, 'played'), entry(2, 'played'), entry(3)])
    await show.undo('Undo')
    expect(sent.at(-1)).toMatchObject({ path: '/gigs_lm/1/undo', body: { version: 5 } })
    expect(show.feed.show).toHaveBeenCalled()
    await show.makeCurrent(entry(3), 'Make current')
    expect(sent.at(-1)).toMatchObject({ path: '/gigs_lm/1/current', body: { entryId: 3 } })
    expect(show.correcting).toBe(false)
    show.stop()
  })

  it('a refused correction is said', async () => {
    server(() => json({ code: 'LIVE_VERSION_CONFLICT', message: 'stale' }, 409))
    const show = stage()
    await show.undo('Undo')
    expect(show.failure).toMatchObject({ what: 'Undo' })
    show.dismiss()
    expect(show.failure).toBe(null)
  })
})
