import { flushSync } from 'svelte'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { draft, saveDrafts } from './drafts.svelte'

/** sessionStorage as the browser has it, one per test. */
function memoryStorage (): Storage {
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- a stand-in store, never rendered
  const items = new Map<string, string>()
  return {
    get length () {
      return items.size
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => {
      items.delete(key)
    },
    setItem: (key, value) => {
      items.set(key, String(value))
    }
  }
}

/** A draft made as a screen makes it, ended with the returned function (the screen closes). */
function onScreen<T> (make: () => T): { value: T; close: () => void } {
  let value!: T
  const close = $effect.root(() => {
    value = make()
  })
  // The screen's effects run (as after a component mounted), so closing it tears them down.
  flushSync()
  return { value, close }
}

beforeEach(() => {
  vi.stubGlobal('sessionStorage', memoryStorage())
})
afterEach(() => {
  vi.unstubAllGlobals()
})

describe('drafts', () => {
  it('a form starts from its initial values when nothing was kept', () => {
    const screen = onScreen(() => draft('me-profile', { name: 'Jonas', email: '' }, 7))
    expect(screen.value).toEqual({ name: 'Jonas', email: '' })
    screen.close()
  })

  it('what was typed survives a lost session, for the same user only, once', () => {
    const screen = onScreen(() => draft('gig-edit-3', { name: 'Old', notes: '' }, 7))
    screen.value.name = 'Typed meanwhile'
    saveDrafts(7)
    screen.close()

    const other = onScreen(() => draft('gig-edit-3', { name: 'Old', notes: '' }, 8))
    expect(other.value.name).toBe('Old')
    other.close()

    const again = onScreen(() => draft('gig-edit-3', { name: 'Old', notes: '' }, 7))
    expect(again.value).toEqual({ name: 'Typed meanwhile', notes: '' })
    again.close()
    const once = onScreen(() => draft('gig-edit-3', { name: 'Old', notes: '' }, 7))
    expect(once.value.name).toBe('Old')
    once.close()
  })

  it('a closed screen’s draft is not kept; nothing live writes nothing', () => {
    const screen = onScreen(() => draft('song-new', { title: 'x' }, 7))
    screen.close()
    saveDrafts(7)
    expect(sessionStorage.getItem('bandstand.drafts')).toBeNull()
  })
})
