import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { i18n, initLocale, setLanguage } from './index.svelte'

// No DOM in these tests (vitest-environment.ts): the switch writes the document's language.
const root = { lang: '' }
const hadDocument = 'document' in globalThis
beforeAll(() => {
  if (!hadDocument) Object.assign(globalThis, { document: { documentElement: root } })
})
afterAll(() => {
  if (!hadDocument) Reflect.deleteProperty(globalThis, 'document')
  i18n.language = 'en'
})

describe('the Language menu during the start', () => {
  it('keeps a language chosen before the band configuration arrived', async () => {
    // The menu shows before the start's configuration answer: German chosen (its catalogue
    // still loading), then the band's configuration (English) applied.
    const chosen = setLanguage('de')
    await initLocale('en-GB', true)
    await chosen
    expect(i18n.language).toBe('de')
    expect(root.lang).toBe('de')
  })
})
