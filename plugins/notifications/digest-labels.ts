import type { DocumentLanguage } from '#src/documents/labels.js'

// The words of the weekly digest, one table per language (the band's locale picks it).

export const DIGEST_LABELS: Record<DocumentLanguage, {
  subject: (band: string) => string
  intro: string
  coming: string
  nothingComing: string
  owe: string
  survey: string
  noAnswer: string
  more: (count: number) => string
}> = {
  de: {
    subject: (b) => `Wochenüberblick: ${b}`,
    intro: 'das steht an, und darauf wartet die Band noch von dir.',
    coming: 'Die nächsten zwei Wochen',
    nothingComing: 'In den nächsten zwei Wochen steht nichts an.',
    owe: 'Deine Antwort fehlt noch',
    survey: 'Umfrage',
    noAnswer: 'noch keine Antwort',
    more: (n) => `… und ${n} weitere in Bandstand`
  },
  en: {
    subject: (b) => `Weekly digest: ${b}`,
    intro: 'here is what is coming, and what the band still waits for from you.',
    coming: 'The next two weeks',
    nothingComing: 'Nothing is planned for the next two weeks.',
    owe: 'Still waiting for your answer',
    survey: 'Survey',
    noAnswer: 'not answered yet',
    more: (n) => `… and ${n} more in Bandstand`
  }
}
