import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Page } from 'playwright-core'
import { projectPath } from '#src/project-path.js'

// One language per screen: the words of one catalogue that the other never uses
// must not show on a screen in the other language.

const I18N = projectPath('web', 'src', 'lib', 'i18n')
type Message = string | Record<string, string>

async function values (language: 'en' | 'de'): Promise<string[]> {
  const all: string[] = []
  for (const file of readdirSync(join(I18N, language)).filter((f) => f.endsWith('.ts'))) {
    const module = (await import(pathToFileURL(join(I18N, language, file)).href)) as {
      default: Record<string, Message>
    }
    for (const message of Object.values(module.default)) {
      all.push(...(typeof message === 'string' ? [message] : Object.values(message)))
    }
  }
  return all
}

/** Words of at least three letters, placeholders left out; case kept (`songs` is not `Songs`). */
export const wordsOf = (text: string): string[] =>
  [...text.replace(/\{\w+\}/g, ' ').matchAll(/\p{L}{3,}/gu)].map((m) => m[0])

/**
 * The words of `language`'s catalogue that the other catalogue never uses, minus `besides` (the
 * band's own data: song titles and names are no labels).
 */
export async function foreignWords (
  language: 'en' | 'de',
  besides: Iterable<string> = []
): Promise<Set<string>> {
  const other = language === 'en' ? 'de' : 'en'
  const shared = new Set((await values(other)).flatMap(wordsOf))
  for (const word of besides) shared.add(word)
  return new Set((await values(language)).flatMap(wordsOf).filter((w) => !shared.has(w)))
}

/** The screen's words: visible text and the names screen readers get. */
export async function screenWords (page: Page): Promise<string[]> {
  const text = await page.evaluate(() => {
    const named = document.querySelectorAll('[aria-label], [placeholder], [title]')
    const labels = Array.from(named).map(
      (el) =>
        [el.getAttribute('aria-label'), el.getAttribute('placeholder'), el.getAttribute('title')]
          .filter(Boolean)
          .join(' ')
    )
    return [document.body.innerText, document.title, ...labels].join('\n')
  })
  return wordsOf(text)
}

/** Strings anywhere in a JSON document (the band's data as the API sends it). */
export function stringsIn (value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (Array.isArray(value)) return value.flatMap(stringsIn)
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsIn)
  return []
}
