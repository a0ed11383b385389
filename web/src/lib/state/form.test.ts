import { afterEach, describe, expect, it, vi } from 'vitest'
import { ApiFailure } from '../api/client'
import { announce, announcer } from './announcer.svelte'
import { FormState } from './form.svelte'

afterEach(() => {
  vi.useRealTimers()
})

describe('FormState', () => {
  it('a successful submit announces its message and clears earlier errors', async () => {
    const form = new FormState()
    form.invalid('name', 'errors.field.required')
    expect(form.fields).toEqual({ name: 'Required.' })
    expect(form.error).toBe('Please check the highlighted fields.')
    const ok = await form.submit(async () => {}, 'Saved.')
    expect(ok).toBe(true)
    expect(form).toMatchObject({ busy: false, error: '', fields: {} })
    expect(announcer.message).toBe('Saved.')
  })

  it('a failed submit shows the message and each field’s message', async () => {
    const form = new FormState()
    const ok = await form.submit(async () => {
      throw new ApiFailure(400, 'VALIDATION_ERROR', 'body/name …', [
        { field: 'body.name', message: 'x', keyword: 'maxLength', params: { limit: 200 } }
      ])
    })
    expect(ok).toBe(false)
    expect(form.error).toBe('Please check the highlighted fields.')
    expect(form.fields).toEqual({ name: 'At most 200 characters.' })
    expect(form.busy).toBe(false)
  })

  it('puts a code that names no field next to the field it belongs to', async () => {
    const form = new FormState({ WEAK_PASSWORD: 'password' })
    await form.submit(async () => {
      throw new ApiFailure(400, 'WEAK_PASSWORD', 'password is too common', [], null, 'too_common')
    })
    expect(form.fields).toEqual({
      password: 'This password is on the list of common passwords. Please pick another one.'
    })
  })

  it('runs one submit at a time', async () => {
    const form = new FormState()
    let release!: () => void
    const first = form.submit(
      () =>
        new Promise<void>((resolve) => {
          release = resolve
        })
    )
    expect(form.busy).toBe(true)
    expect(await form.submit(async () => {})).toBe(false)
    release()
    expect(await first).toBe(true)
  })

  it('names the line of a list typed one entry per line', async () => {
    const form = new FormState()
    await form.submit(async () => {
      throw new ApiFailure(400, 'VALIDATION_ERROR', '', [
        { field: 'body.genres.3', message: 'x', keyword: 'maxLength', params: { limit: 60 } }
      ])
    })
    expect(form.listError('genres')).toBe('Line 4: At most 60 characters.')
    expect(form.listError('instruments')).toBe('')
  })
})

describe('announce', () => {
  it('replaces the message, counts it, and clears it after six seconds', () => {
    vi.useFakeTimers()
    const key = announcer.key
    announce('Answer sent.')
    expect(announcer).toEqual({ message: 'Answer sent.', key: key + 1 })
    vi.advanceTimersByTime(5999)
    expect(announcer.message).toBe('Answer sent.')
    vi.advanceTimersByTime(1)
    expect(announcer.message).toBe('')
  })
})
