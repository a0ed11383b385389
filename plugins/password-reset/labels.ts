import type { DocumentLanguage } from '#src/documents/labels.js'
import type { LinkKind } from '#shared/enums.js'

// The words of the invitation and reset-link mails, one table per language (the band's locale
// picks it: `documentLanguage`). Plain text; names and the link are filled in by link-mail.ts.

export interface LinkMailFacts {
  appName: string
  bandName: string
  /** The member the mail goes to. */
  displayName: string
  username: string
  /** The admin who made the link (`admin` below when unknown). */
  admin: string
  url: string
  /** How long the link lasts, from `life`. */
  life: string
}

interface MailWords {
  subject: (f: LinkMailFacts) => string
  text: (f: LinkMailFacts) => string
}

export type LinkMailLabels = Record<LinkKind, MailWords> & {
  /** Who made the link, when their account is gone meanwhile. */
  admin: string
  /** "15 minutes", "24 hours", "7 days": how long a link lasts, in the mail's words. */
  life: (ms: number) => string
}

/** Whole minutes below two hours, whole days when it is a number of days, else hours. */
const lifeIn = (ms: number, unit: (n: number, u: 'minute' | 'hour' | 'day') => string) => {
  const minutes = Math.round(ms / 60_000)
  if (minutes < 120) return unit(minutes, 'minute')
  const hours = Math.round(minutes / 60)
  return hours % 24 === 0 ? unit(hours / 24, 'day') : unit(hours, 'hour')
}

const GERMAN_UNITS = {
  minute: ['Minute', 'Minuten'],
  hour: ['Stunde', 'Stunden'],
  day: ['Tag', 'Tage']
} as const

export const LINK_MAIL_LABELS: Record<DocumentLanguage, LinkMailLabels> = {
  de: {
    admin: 'Ein Admin',
    life: (ms) => lifeIn(ms, (n, u) => `${n} ${GERMAN_UNITS[u][n === 1 ? 0 : 1]}`),
    invite: {
      subject: (f) => `${f.appName}: Einladung von ${f.bandName}`,
      text: (f) =>
        `Hallo ${f.displayName},\n\n${f.admin} lädt dich zu ${f.appName} ` +
        `(${f.bandName}) ein. Mit diesem Link wählst du dein Passwort, dein ` +
        `Benutzername ist „${f.username}“:\n\n${f.url}\n\nDer Link gilt ${f.life} und ` +
        'nur einmal.\n'
    },
    reset: {
      subject: (f) => `${f.appName}: neues Passwort setzen`,
      text: (f) =>
        `Hallo ${f.displayName},\n\n${f.admin} hat dir einen Link geschickt, mit dem du ` +
        `ein neues Passwort für ${f.appName} (${f.bandName}) setzt:\n\n` +
        `${f.url}\n\nDer Link gilt ${f.life} und nur einmal. Danach bist du auf allen ` +
        'Geräten abgemeldet und meldest dich mit dem neuen Passwort an.\n'
    }
  },
  en: {
    admin: 'An admin',
    life: (ms) => lifeIn(ms, (n, u) => `${n} ${u}${n === 1 ? '' : 's'}`),
    invite: {
      subject: (f) => `${f.appName}: invitation from ${f.bandName}`,
      text: (f) =>
        `Hello ${f.displayName},\n\n${f.admin} invites you to ${f.appName} ` +
        `(${f.bandName}). With this link you choose your password; your ` +
        `username is “${f.username}”:\n\n${f.url}\n\nThe link works for ${f.life}, and ` +
        'only once.\n'
    },
    reset: {
      subject: (f) => `${f.appName}: set a new password`,
      text: (f) =>
        `Hello ${f.displayName},\n\n${f.admin} has sent you a link to set a new password ` +
        `for ${f.appName} (${f.bandName}):\n\n` +
        `${f.url}\n\nThe link works for ${f.life}, and only once. Afterwards you are logged ` +
        'out on every device and log in with the new password.\n'
    }
  }
}
