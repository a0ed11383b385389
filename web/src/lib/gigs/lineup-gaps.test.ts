import { afterEach, describe, expect, it, vi } from 'vitest'

const get = vi.fn()
const role = { editor: true }
vi.mock('$lib/api/client', () => ({
  api: { GET: (...args: unknown[]) => get(...args) },
  call: async (promise: Promise<unknown>) => await promise
}))
vi.mock('$lib/state/session.svelte', () => ({ can: () => role.editor }))

const { lineupGaps } = await import('./lineup-gaps')

describe('the lineup warnings of a gig list', () => {
  afterEach(() => {
    get.mockReset()
    role.editor = true
  })

  it('an editor gets each gig\'s open needs by id, from one request', async () => {
    const open = [{ instrument: 'Drums', missing: 1, confirmed: 0 }]
    get.mockResolvedValue({ gigs: [{ gigId: 4, date: '2026-12-02', open }] })
    const gaps = await lineupGaps({ upcoming: true })
    expect(gaps.get(4)).toEqual(open)
    expect(get).toHaveBeenCalledTimes(1)
    expect(get.mock.calls[0]![1]).toEqual({ params: { query: { upcoming: true } } })
  })

  it('a member asks nothing; a failed request only drops the warnings', async () => {
    role.editor = false
    expect((await lineupGaps({})).size).toBe(0)
    expect(get).not.toHaveBeenCalled()
    role.editor = true
    get.mockRejectedValue(new Error('offline'))
    expect((await lineupGaps({})).size).toBe(0)
  })
})
