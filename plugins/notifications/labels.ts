import type { DocumentLanguage } from '#src/documents/labels.js'
import type { AvailabilityStatus } from '#shared/enums.js'

// The words of the mails to members, one table per language (the band's locale picks it). The
// facts (names, dates, places, links) are filled in by compose.ts.

/** Why an event mail is sent. */
export type EventReason = 'created' | 'confirmed' | 'changed' | 'cancelled' | 'reminder'

export interface MemberMailLabels {
  gig: string
  rehearsal: string
  subject: Record<EventReason, (what: string) => string>
  intro: Record<EventReason, string>
  survey: { subject: (title: string) => string; intro: string; reminder: string; closes: string }
  hello: (name: string) => string
  date: string
  time: string
  place: string
  notes: string
  answerBy: string
  answer: string
  answers: Record<AvailabilityStatus, string>
  open: string
  footer: (band: string) => string
  unsubscribe: string
}

export const MEMBER_MAIL_LABELS: Record<DocumentLanguage, MemberMailLabels> = {
  de: {
    gig: 'Auftritt',
    rehearsal: 'Probe',
    subject: {
      created: (w) => `Neu: ${w}`,
      confirmed: (w) => `Bestätigt: ${w}`,
      changed: (w) => `Geändert: ${w}`,
      cancelled: (w) => `Abgesagt: ${w}`,
      reminder: (w) => `Bitte antworten: ${w}`
    },
    intro: {
      created: 'ein neuer Termin braucht deine Antwort.',
      confirmed: 'dieser Termin ist jetzt bestätigt.',
      changed: 'Datum, Zeit oder Ort dieses Termins haben sich geändert.',
      cancelled: 'dieser Termin ist abgesagt.',
      reminder: 'du hast zu diesem Termin noch nicht geantwortet.'
    },
    survey: {
      subject: (t) => `Neue Umfrage: ${t}`,
      intro: 'eine neue Umfrage wartet auf deine Antwort.',
      reminder: 'du hast bei dieser Umfrage noch nicht geantwortet.',
      closes: 'Endet'
    },
    hello: (n) => `Hallo ${n},`,
    date: 'Datum',
    time: 'Zeit',
    place: 'Ort',
    notes: 'Notizen',
    answerBy: 'Antwort bis',
    answer: 'Kannst du? Ein Klick genügt:',
    answers: { yes: 'Ja', maybe: 'Vielleicht', no: 'Nein' },
    open: 'In Bandstand öffnen',
    footer: (b) => `Diese Mail kommt von Bandstand für ${b}.`,
    unsubscribe: 'Solche Mails abbestellen'
  },
  en: {
    gig: 'Gig',
    rehearsal: 'Rehearsal',
    subject: {
      created: (w) => `New: ${w}`,
      confirmed: (w) => `Confirmed: ${w}`,
      changed: (w) => `Changed: ${w}`,
      cancelled: (w) => `Cancelled: ${w}`,
      reminder: (w) => `Please answer: ${w}`
    },
    intro: {
      created: 'a new date needs your answer.',
      confirmed: 'this date is now confirmed.',
      changed: 'the date, time or place of this event has changed.',
      cancelled: 'this event is cancelled.',
      reminder: 'you have not answered for this event yet.'
    },
    survey: {
      subject: (t) => `New survey: ${t}`,
      intro: 'a new survey is waiting for your answer.',
      reminder: 'you have not answered this survey yet.',
      closes: 'Closes'
    },
    hello: (n) => `Hello ${n},`,
    date: 'Date',
    time: 'Time',
    place: 'Place',
    notes: 'Notes',
    answerBy: 'Answer by',
    answer: 'Can you make it? One click is enough:',
    answers: { yes: 'Yes', maybe: 'Maybe', no: 'No' },
    open: 'Open in Bandstand',
    footer: (b) => `This mail comes from Bandstand for ${b}.`,
    unsubscribe: 'Unsubscribe from such mails'
  }
}
