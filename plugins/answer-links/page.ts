import type { DocumentLanguage } from '#src/documents/labels.js'
import { ANSWER_VALUES, type AvailabilityStatus } from '#shared/enums.js'

// The one-click answer page: plain server-rendered HTML (no script), a form that works with
// JavaScript off and fits a 360 px phone.

export const ANSWER_COMMENT_MAX = 200

const WORDS = {
  de: {
    title: 'Deine Antwort',
    question: 'Kannst du?',
    answers: { yes: 'Ja', maybe: 'Vielleicht', no: 'Nein' },
    comment: 'Kommentar (freiwillig, höchstens 200 Zeichen)',
    save: 'Antwort speichern',
    saved: (a: string) => `Gespeichert: ${a}. Du kannst die Antwort hier jederzeit ändern.`,
    hello: (n: string) => `Hallo ${n}`,
    invalid: 'Dieser Link gilt nicht (mehr). Öffne den Termin in Bandstand.',
    closed: 'Für diesen Termin werden keine Antworten mehr angenommen.',
    bad: 'Bitte wähle Ja, Vielleicht oder Nein; der Kommentar hat höchstens 200 Zeichen.',
    open: 'In Bandstand öffnen'
  },
  en: {
    title: 'Your answer',
    question: 'Can you make it?',
    answers: { yes: 'Yes', maybe: 'Maybe', no: 'No' },
    comment: 'Comment (optional, up to 200 characters)',
    save: 'Save answer',
    saved: (a: string) => `Saved: ${a}. You can change your answer here at any time.`,
    hello: (n: string) => `Hello ${n}`,
    invalid: 'This link is not valid (any more). Open the event in Bandstand instead.',
    closed: 'Answers for this event are closed.',
    bad: 'Please choose Yes, Maybe or No; the comment has at most 200 characters.',
    open: 'Open in Bandstand'
  }
} as const

export type AnswerPageProblem = 'invalid' | 'closed' | 'bad'

export const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

const STYLE =
  'body{font-family:system-ui,sans-serif;line-height:1.5;margin:0;padding:1rem;color:#1a1a1a;' +
  'background:#fff}main{max-width:32rem;margin:0 auto}h1{font-size:1.4rem}' +
  'fieldset{border:1px solid #767676;border-radius:.5rem;padding:.5rem 1rem}' +
  'label{display:block;padding:.5rem 0;font-size:1.1rem}' +
  'textarea{width:100%;box-sizing:border-box;font:inherit;min-height:4rem}' +
  'button{margin-top:1rem;font:inherit;font-size:1.1rem;' +
  'padding:.75rem 1.5rem;border:0;border-radius:.5rem;background:#0b5394;color:#fff;width:100%}' +
  '.note{padding:.75rem;border-radius:.5rem;background:#e8f0fe}a{color:#0b5394}'

export function layout (language: DocumentLanguage, title: string, body: string): string {
  return '<!doctype html>\n' +
    `<html lang="${language}"><head><meta charset="utf-8">` +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<meta name="robots" content="noindex">' +
    // The header says no-referrer, under which a browser posts the form with `Origin: null`, a
    // cross-site write to the server's CSRF check. The page's own policy names the origin only:
    // never the path, which holds the token.
    '<meta name="referrer" content="origin">' +
    `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>` +
    `<body><main>${body}</main></body></html>\n`
}

export interface AnswerPageInput {
  language: DocumentLanguage
  bandName: string
  displayName: string
  /** The event's lines: title, date and time, place. */
  event: string[]
  eventUrl: string
  /** Where the form posts (this page's own path). */
  action: string
  chosen: AvailabilityStatus | null
  comment: string
  saved?: boolean
  problem?: AnswerPageProblem
}

export function answerPage (input: AnswerPageInput): string {
  const words = WORDS[input.language]
  const radios = ANSWER_VALUES.map((value) =>
    `<label><input type="radio" name="answer" value="${value}" required` +
    `${input.chosen === value ? ' checked' : ''}> ${words.answers[value]}</label>`).join('')
  const notice = input.saved && input.chosen
    ? `<p class="note" role="status">${escapeHtml(words.saved(words.answers[input.chosen]))}</p>`
    : input.problem
      ? `<p class="note" role="alert">${escapeHtml(words[input.problem])}</p>`
      : ''
  return layout(input.language, `${words.title} · ${input.bandName}`,
    `<h1>${escapeHtml(words.title)}</h1>` +
    `<p>${escapeHtml(words.hello(input.displayName))} · ${escapeHtml(input.bandName)}</p>` +
    `<p><strong>${escapeHtml(input.event[0] ?? '')}</strong>` +
    `${input.event.slice(1).map((l) => `<br>${escapeHtml(l)}`).join('')}</p>` +
    notice +
    `<form method="post" action="${escapeHtml(input.action)}">` +
    `<fieldset><legend>${escapeHtml(words.question)}</legend>${radios}</fieldset>` +
    `<label for="comment">${escapeHtml(words.comment)}</label>` +
    `<textarea id="comment" name="comment" maxlength="${ANSWER_COMMENT_MAX}">` +
    `${escapeHtml(input.comment)}</textarea>` +
    `<button type="submit">${escapeHtml(words.save)}</button></form>` +
    `<p><a href="${escapeHtml(input.eventUrl)}">${escapeHtml(words.open)}</a></p>`)
}

/** A page that only says why the link does nothing. */
export function problemPage (language: DocumentLanguage, problem: AnswerPageProblem): string {
  const words = WORDS[language]
  return layout(language, words.title,
    `<h1>${escapeHtml(words.title)}</h1><p class="note" role="alert">` +
    `${escapeHtml(words[problem])}</p>`)
}
