import { api, call } from '../api/client'
import { takeFirstBody } from '../api/first-answers'
import type { AppConfig } from '../api/types'
import { initLocale, initLocaleNow } from '../i18n/index.svelte'

/** The public app configuration (GET /public/app_config), loaded once before the first screen. */
export const appConfig = $state<AppConfig>({
  appName: 'Bandstand',
  bandName: '',
  version: '',
  timezone: 'Europe/Berlin',
  locale: 'de-DE',
  genres: [],
  chordNotation: 'german',
  gigKinds: [],
  gigStatuses: [],
  songStatuses: [],
  keys: [],
  timing: {
    defaultSongSeconds: 240,
    songGapSeconds: 30,
    setBreakSeconds: 600,
    defaultStartTime: '20:00'
  },
  features: { docs: true, calendar: true, memberSongFiles: false },
  money: { currency: 'EUR', membersSee: 'own' },
  hasLogo: false,
  localeChosen: true
})

/**
 * `fresh` after the admin changed it: the answer is cacheable for five minutes, so the browser is
 * told to revalidate (ETag) instead of taking its copy.
 */
export async function loadAppConfig (fresh = false): Promise<void> {
  const config = await call(api.GET('/public/app_config', fresh ? { cache: 'no-cache' } : {}))
  Object.assign(appConfig, config)
  await initLocale(config.locale, config.localeChosen)
}

/**
 * The configuration the offline shell carries (lib/api/first-answers.ts), applied at once; false
 * when it has none or its language is still to be loaded (then loadAppConfig).
 */
export function appConfigFromShell (): boolean {
  const config = takeFirstBody<AppConfig>('/public/app_config', (body) =>
    initLocaleNow(body.locale, body.localeChosen))
  if (!config) return false
  Object.assign(appConfig, config)
  return true
}
