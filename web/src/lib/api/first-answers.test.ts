import { afterEach, describe, expect, it, vi } from 'vitest'

const ORIGIN = 'http://phone.test'

/** The module fresh (it reads the shell's block once), with `block` as the shell's JSON block. */
async function withShell (block: string | null) {
  vi.resetModules()
  vi.stubGlobal('document', {
    getElementById: (id: string) =>
      id === 'bandstand-first-answers' && block !== null ? { textContent: block } : null
  })
  vi.stubGlobal('location', { origin: ORIGIN })
  return import('./first-answers')
}

const kept = (body: unknown, status = 200) => ({
  status,
  headers: [['etag', '"v1"'], ['x-bandstand-offline', 'Fri, 27 Nov 2026 20:00:00 GMT']],
  body: JSON.stringify(body)
})

describe('first answers from the offline shell', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it('answers each kept GET once, with its status, headers and body', async () => {
    const shell = JSON.stringify({ '/me': kept({ id: 7 }), '/gigs_lm/3': kept({ version: 4 }) })
    const { firstAnswer } = await withShell(shell)
    expect(firstAnswer(new Request(`${ORIGIN}/me`, { method: 'POST' }))).toBeUndefined()
    expect(firstAnswer(new Request('http://elsewhere.test/me'))).toBeUndefined()
    const me = firstAnswer(new Request(`${ORIGIN}/me`))!
    expect(me.status).toBe(200)
    expect(me.headers.get('etag')).toBe('"v1"')
    expect(me.headers.get('x-bandstand-offline')).toBe('Fri, 27 Nov 2026 20:00:00 GMT')
    expect(await me.json()).toEqual({ id: 7 })
    // Once: the next request of it asks the network.
    expect(firstAnswer(new Request(`${ORIGIN}/me`))).toBeUndefined()
    expect(await firstAnswer(new Request(`${ORIGIN}/gigs_lm/3`))!.text()).toBe('{"version":4}')
    expect(firstAnswer(new Request(`${ORIGIN}/gigs/3`))).toBeUndefined()
  })

  it('gives a body to code that takes it, and keeps it for a request when not taken', async () => {
    const shell = JSON.stringify({
      '/public/app_config': kept({ locale: 'de-DE' }),
      '/me': kept({ code: 'X' }, 401)
    })
    const { firstAnswer, takeFirstBody } = await withShell(shell)
    expect(takeFirstBody('/me', () => true)).toBeUndefined()
    const seen: unknown[] = []
    const refuse = (body: unknown) => {
      seen.push(body)
      return false
    }
    expect(takeFirstBody('/public/app_config', refuse)).toBeUndefined()
    expect(seen).toEqual([{ locale: 'de-DE' }])
    expect(takeFirstBody('/public/app_config', () => true)).toEqual({ locale: 'de-DE' })
    expect(firstAnswer(new Request(`${ORIGIN}/public/app_config`))).toBeUndefined()
  })

  it('answers nothing without the block or with a broken one', async () => {
    for (const block of [null, '{"/me": ']) {
      const { firstAnswer, takeFirstBody } = await withShell(block)
      expect(firstAnswer(new Request(`${ORIGIN}/me`))).toBeUndefined()
      expect(takeFirstBody('/me', () => true)).toBeUndefined()
    }
  })
})
