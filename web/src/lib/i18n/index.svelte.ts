/**
 * One message catalogue, split by area: `en/<area>.ts` and `de/<area>.ts` each export a flat object
 * of messages, and every key is used as `t('<area>.<key>')`. A new screen adds its own two files
 * (no central list to edit); test/web/web-i18n.test.ts checks that both languages have the same
 * keys and placeholders and that every key the code uses exists.
 *
 * A message is a string with `{name}` placeholders, or plural forms `{ one, other }` chosen by the
 * `count` parameter (Intl.PluralRules).
 */
export type Message = string | { zero?: string; one?: string; other: string }
export type Messages = Record<string, Message>

// English is built in: it is the fallback of every message. Other languages are one chunk each,
// loaded when chosen (german.ts): a start evaluates one catalogue of ~47 KB, not both (~94 KB).
// The service worker precaches every built file, so switching offline works too.
const english = import.meta.glob<Messages>('./en/*.ts', { eager: true, import: 'default' })
const loaders: Record<'en' | 'de', () => Promise<Record<string, Messages>>> = {
  en: () => Promise.resolve(english),
  de: () => import('./german').then((module) => module.default)
}
export type Language = keyof typeof loaders
export const LANGUAGES: Language[] = ['en', 'de']

// Built once per language and never changed: a plain Map.
function flatten (files: Record<string, Messages>): Map<string, Message> {
  return new Map(
    Object.entries(files).flatMap(([file, entries]) => {
      const area = file.replace(/^.*\/([^/]+)\.ts$/, '$1')
      return Object.entries(entries).map(([key, value]) => [`${area}.${key}`, value] as const)
    })
  )
}
const catalogue: Partial<Record<Language, Map<string, Message>>> & {
  en: Map<string, Message>
} = { en: flatten(english) }

/** Loads `language`'s messages (once); until then t() answers in English. */
export async function loadLanguage (language: Language): Promise<void> {
  catalogue[language] ??= flatten(await loaders[language]())
}

const LOCALE_KEY = 'bandstand.locale'
// Region used for dates when the band's configured locale is of another language.
const DEFAULT_REGION: Record<Language, string> = { en: 'en-GB', de: 'de-DE' }

/** The active language and the BCP 47 locale used for Intl formatting. Reactive. */
export const i18n = $state({ language: 'en' as Language, locale: 'en-GB', bandLocale: 'de-DE' })

export function languageOf (locale: string): Language {
  const language = locale.slice(0, 2).toLowerCase()
  return (LANGUAGES as string[]).includes(language) ? (language as Language) : 'en'
}

/**
 * Band default from the app config, unless this device chose a language (kept across logins).
 * Until the band chose its language (a fresh install), the browser's language is the default.
 * Resolves once the language's messages are loaded, so the first screen shows no other language.
 */
export async function initLocale (bandLocale: string, bandChose = true): Promise<void> {
  await setLanguage(startLanguage(bandLocale, bandChose), false)
}

/**
 * initLocale at once, when the language's messages need no loading (English, built in): the
 * offline start from the worker's shell (lib/api/first-answers.ts). False: nothing was switched,
 * initLocale it is.
 */
export function initLocaleNow (bandLocale: string, bandChose = true): boolean {
  const language = startLanguage(bandLocale, bandChose)
  if (!catalogue[language]) return false
  wanted = language
  switchTo(language, false)
  return true
}

function startLanguage (bandLocale: string, bandChose: boolean): Language {
  i18n.bandLocale = bandChose ? bandLocale : (navigator.language || bandLocale)
  // Chosen on this page already, while the start still loaded its configuration: the choice stands.
  if (chosenHere) return chosenHere
  let chosen: string | null = null
  try {
    chosen = localStorage.getItem(LOCALE_KEY)
  } catch {}
  return chosen && (LANGUAGES as string[]).includes(chosen)
    ? (chosen as Language)
    : languageOf(i18n.bandLocale)
}

// The last language asked for: a slower load of an earlier choice does not override it.
let wanted: Language | undefined
// The last language chosen on this page (the Language menu): a start that loads the band's
// configuration after it (the menu shows before that answer) must not switch back.
let chosenHere: Language | undefined

/**
 * Switches once the language's messages are loaded. If they cannot be loaded (a broken
 * connection without the service worker's cache), the screen stays in its language.
 */
export async function setLanguage (language: Language, remember = true): Promise<void> {
  if (remember) chosenHere = language
  wanted = language
  try {
    await loadLanguage(language)
  } catch {
    return
  }
  if (wanted !== language) return
  switchTo(language, remember)
}

function switchTo (language: Language, remember: boolean): void {
  i18n.language = language
  i18n.locale =
    languageOf(i18n.bandLocale) === language ? i18n.bandLocale : DEFAULT_REGION[language]
  document.documentElement.lang = language
  if (remember) {
    try {
      localStorage.setItem(LOCALE_KEY, language)
    } catch {}
  }
}

/** Storage keys that survive logout: the device's language is a device setting, not user data. */
export const DEVICE_SETTINGS = [LOCALE_KEY]

export type Params = Record<string, string | number>

/** The message for `key` in the active language (else English, else the key itself). */
export function t (key: string, params: Params = {}): string {
  const message = catalogue[i18n.language]?.get(key) ?? catalogue.en.get(key)
  if (message === undefined) return key
  let text: string
  if (typeof message === 'string') {
    text = message
  } else {
    const count = Number(params.count ?? 0)
    const form = new Intl.PluralRules(i18n.locale).select(count) as 'zero' | 'one' | 'other'
    text = (count === 0 ? message.zero : undefined) ?? message[form] ?? message.other
  }
  return text.replace(/\{(\w+)\}/g, (all, name: string) =>
    name in params ? String(params[name]) : all
  )
}

/** Whether the catalogue has `key` (errors.ts falls back to generic messages). */
export function hasMessage (key: string): boolean {
  return catalogue.en.has(key)
}
