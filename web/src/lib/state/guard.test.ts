import { afterEach, describe, expect, it, vi } from 'vitest'
import type { User } from '../api/types'
import { mayManageSurvey, mayOpen, requireRole } from './guard'
import { screenRead, startReads } from './screen-read'
import { can, safeNext, session } from './session.svelte'

// Kit's client runtime needs a browser to load: nothing here navigates, and paths resolve under
// the app's base (svelte.config.js: paths.base).
vi.mock('$app/navigation', () => ({ goto: vi.fn() }))
vi.mock('$app/paths', () => ({ resolve: (path: string) => `/app${path}` }))

const user = (role: User['role'], id = 7, passwordChangeRequired = false): User => ({
  id,
  username: 'jonas',
  displayName: 'Jonas',
  email: null,
  role,
  status: 'active',
  isMusician: true,
  isSinger: false,
  occasional: false,
  instruments: [],
  passwordChangeRequired,
  createdAt: '2026-01-01T00:00:00.000Z'
})

afterEach(() => {
  session.user = null
})

describe('roles in the UI', () => {
  it('ranks member < editor < admin', () => {
    session.user = user('editor')
    expect([can('member'), can('editor'), can('admin')]).toEqual([true, true, false])
    expect([mayOpen(undefined), mayOpen('editor'), mayOpen('admin')]).toEqual([true, true, false])
    session.user = null
    expect(can('member')).toBe(false)
  })

  it('a screen says its role in its load data', () => {
    expect(requireRole('admin')()).toEqual({ requiredRole: 'admin' })
  })

  it('a survey is managed by its creator, editors and admins', () => {
    session.user = user('member', 7)
    expect(mayManageSurvey({ createdBy: 7 })).toBe(true)
    expect(mayManageSurvey({ createdBy: 8 })).toBe(false)
    session.user = user('editor', 9)
    expect(mayManageSurvey({ createdBy: 8 })).toBe(true)
  })
})

describe('screenRead', () => {
  const counting = () => {
    const counter = { calls: 0, read: async () => ++counter.calls }
    return counter
  }

  it('reads at once for a known user who may open the screen', () => {
    session.user = user('editor')
    const counter = counting()
    screenRead(counter.read, 'editor')
    expect(counter.calls).toBe(1)
  })

  it('waits for the screen when nobody is known yet, the role is missing, or a new password is due',
    () => {
      const counter = counting()
      screenRead(counter.read)
      session.user = user('member')
      screenRead(counter.read, 'editor')
      session.user = user('admin', 7, true)
      const waiting = screenRead(counter.read)
      expect(counter.calls).toBe(0)
      waiting.start()
      expect(counter.calls).toBe(1)
    })
})

describe('startReads', () => {
  it('starts every lazy read of a screen’s data, and nothing else', () => {
    let calls = 0
    const read = async () => ++calls
    const data = { a: screenRead(read), b: screenRead(read), requiredRole: 'editor' }
    expect(calls).toBe(0)
    startReads(data)
    startReads(data)
    expect(calls).toBe(2)
  })
})

describe('safeNext', () => {
  it('comes back only to paths inside the app, never to the login page', () => {
    expect(safeNext('/app/gigs/3?tab=setlist')).toBe('/app/gigs/3?tab=setlist')
    expect(safeNext('//evil.example/app/')).toBe('/app/')
    expect(safeNext('https://evil.example/app/')).toBe('/app/')
    expect(safeNext('/app/login?next=/app/')).toBe('/app/')
    expect(safeNext(null)).toBe('/app/')
    // Normalised before the check: dot segments and backslashes cannot leave the app.
    expect(safeNext('/app/..//evil.example/x')).toBe('/app/')
    expect(safeNext('/app/../login')).toBe('/app/')
    expect(safeNext('/app/%2e%2e/admin')).toBe('/app/')
    expect(safeNext('/app/..\\..\\evil.example')).toBe('/app/')
    expect(safeNext('/app/gigs/../songs')).toBe('/app/songs')
  })
})
