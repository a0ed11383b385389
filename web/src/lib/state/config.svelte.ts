import { api, call } from '../api/client'
import type { AppConfig } from '../api/types'
import { initLocale } from '../i18n/index.svelte'

/** The public app configuration (GET /public/app_config), loaded once before the first screen. */
export const appConfig = $state<AppConfig>({
  appName: 'Bandstand',
  bandName: '',
  version: '',
  timezone: 'Europe/Berlin',
  locale: 'de-DE',
  genres: [],
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
  features: { docs: true, calendar: true },
  hasLogo: false
})

export async function loadAppConfig (): Promise<void> {
  const config = await call(api.GET('/public/app_config'))
  Object.assign(appConfig, config)
  initLocale(config.locale)
}
