import { formatDateIn, joinPresent } from '#src/documents/format.js'
import type { DocumentLanguage } from '#src/documents/labels.js'
import { ANSWER_VALUES, type AvailabilityStatus } from '#shared/enums.js'
import { MEMBER_MAIL_LABELS, type EventReason } from './labels.js'

// A mail to one member, as plain text and as HTML with the same content: the HTML part only
// makes the links buttons; every member-written value is escaped there.

export interface MailEventFacts {
  kind: 'gig' | 'rehearsal'
  id: number
  /** The gig's name; null for a rehearsal (its title is the word "Rehearsal"). */
  name: string | null
  date: string
  startTime: string | null
  endTime: string | null
  place: string | null
  notes: string | null
}

export interface ComposedMail {
  subject: string
  text: string
  html: string
}

export interface Line { label?: string; value: string; href?: string }

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

export function render (
  subject: string,
  blocks: Line[][],
  language: DocumentLanguage
): ComposedMail {
  const text = blocks
    .map((block) => block.map((l) => joinPresent([l.label && `${l.label}:`, l.value], ' '))
      .join('\n'))
    .join('\n\n') + '\n'
  // In HTML a link is its label, a button to press.
  const htmlLine = (l: Line) => {
    if (l.href) {
      return `<a href="${escapeHtml(l.href)}" style="font-weight:bold">` +
        `${escapeHtml(l.label ?? l.value)}</a>`
    }
    const value = escapeHtml(l.value).replace(/\n/g, '<br>')
    return l.label ? `<b>${escapeHtml(l.label)}:</b> ${value}` : value
  }
  const html =
    `<!doctype html><html lang="${language}"><head><meta charset="utf-8">` +
    `<title>${escapeHtml(subject)}</title></head>` +
    '<body style="font-family:sans-serif;line-height:1.5;max-width:40em">' +
    blocks.map((block) => `<p>${block.map(htmlLine).join('<br>\n')}</p>`).join('\n') +
    '</body></html>\n'
  return { subject, text, html }
}

export interface EventMailInput {
  language: DocumentLanguage
  bandName: string
  displayName: string
  reason: EventReason
  event: MailEventFacts
  /** The event's page in the web app. */
  url: string
  /** One-click answers (none for a cancelled event). */
  answerUrl?: (answer: AvailabilityStatus) => string
  answerBy?: string | null
  unsubscribeUrl?: string
}

export function eventTitle (event: MailEventFacts, language: DocumentLanguage): string {
  const words = MEMBER_MAIL_LABELS[language]
  return event.name ?? words.rehearsal
}

export function composeEventMail (input: EventMailInput): ComposedMail {
  const { language, event } = input
  const words = MEMBER_MAIL_LABELS[language]
  const title = eventTitle(event, language)
  const date = formatDateIn(event.date, language)
  const time = joinPresent([event.startTime, event.endTime], '–')
  const facts: Line[] = [
    { value: `${event.kind === 'gig' ? words.gig : words.rehearsal}: ${title}` },
    { label: words.date, value: date },
    ...(time ? [{ label: words.time, value: time }] : []),
    ...(event.place ? [{ label: words.place, value: event.place }] : []),
    ...(event.notes ? [{ label: words.notes, value: event.notes }] : []),
    ...(input.answerBy
      ? [{ label: words.answerBy, value: formatDateIn(input.answerBy, language) }]
      : [])
  ]
  const answers: Line[][] = input.answerUrl
    ? [[
        { value: words.answer },
        ...ANSWER_VALUES.map((a) => ({
          label: words.answers[a],
          value: input.answerUrl!(a),
          href: input.answerUrl!(a)
        }))
      ]]
    : []
  return render(
    words.subject[input.reason](`${title}, ${date}`),
    [
      [{ value: `${words.hello(input.displayName)}\n${words.intro[input.reason]}` }],
      facts,
      ...answers,
      [{ label: words.open, value: input.url, href: input.url }],
      footer(input, words)
    ],
    language
  )
}

export function footer (
  input: { bandName: string; unsubscribeUrl?: string },
  words: (typeof MEMBER_MAIL_LABELS)[DocumentLanguage]
): Line[] {
  return [
    { value: `-- \n${words.footer(input.bandName)}` },
    ...(input.unsubscribeUrl
      ? [{ label: words.unsubscribe, value: input.unsubscribeUrl, href: input.unsubscribeUrl }]
      : [])
  ]
}

export interface SurveyMailInput {
  language: DocumentLanguage
  bandName: string
  displayName: string
  survey: { title: string; description: string | null; closesAt: string | null }
  /** A reminder to answer rather than the news of a new survey. */
  reminder?: boolean
  url: string
  unsubscribeUrl?: string
}

export function composeSurveyMail (input: SurveyMailInput): ComposedMail {
  const words = MEMBER_MAIL_LABELS[input.language]
  const { survey } = input
  return render(
    input.reminder ? words.subject.reminder(survey.title) : words.survey.subject(survey.title),
    [
      [{
        value: `${words.hello(input.displayName)}\n` +
          (input.reminder ? words.survey.reminder : words.survey.intro)
      }],
      [
        { value: survey.title },
        ...(survey.description ? [{ value: survey.description }] : []),
        ...(survey.closesAt ? [{ label: words.survey.closes, value: survey.closesAt }] : [])
      ],
      [{ label: words.open, value: input.url, href: input.url }],
      footer(input, words)
    ],
    input.language
  )
}
