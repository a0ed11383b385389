import type { DocumentLanguage } from '#src/documents/labels.js'

// The words of the chat notices, one table per language (the band's locale picks it, as for the
// documents: `documentLanguage`). Every argument that is member text arrives already made inert
// by `chatText` (markup.ts); these functions only put our own words around it.

export interface NoticeLabels {
  /** A member field quoted the language's way: „…“ in German, “…” in English. */
  quote: (text: string) => string
  songProposed: (by: string, song: string) => string
  songAccepted: (song: string) => string
  gigCreated: (gig: string) => string
  gigConfirmed: (gig: string) => string
  gigCancelled: (gig: string) => string
  setlistPublished: (gig: string, again: boolean, songs: number, sets: number) => string
  surveyOpened: (by: string, title: string) => string
}

export const NOTICE_LABELS: Record<DocumentLanguage, NoticeLabels> = {
  de: {
    quote: (text) => `„${text}“`,
    songProposed: (by, song) => `🎵 Neuer Songvorschlag von ${by}: ${song} – bitte abstimmen.`,
    songAccepted: (song) => `✅ Vorschlag angenommen: ${song}`,
    gigCreated: (gig) => `📅 Neuer Auftritt: ${gig}`,
    gigConfirmed: (gig) => `🎉 Auftritt bestätigt: ${gig}`,
    gigCancelled: (gig) => `❌ Auftritt abgesagt: ${gig}`,
    setlistPublished: (gig, again, songs, sets) =>
      `📋 Setlist ${again ? 'aktualisiert' : 'veröffentlicht'}: ${gig} – ${songs} Titel in ` +
      `${sets} ${sets === 1 ? 'Set' : 'Sets'}`,
    surveyOpened: (by, title) => `🗳️ Neue Umfrage von ${by}: „${title}“`
  },
  en: {
    quote: (text) => `“${text}”`,
    songProposed: (by, song) => `🎵 New song proposal from ${by}: ${song} – please vote.`,
    songAccepted: (song) => `✅ Proposal accepted: ${song}`,
    gigCreated: (gig) => `📅 New gig: ${gig}`,
    gigConfirmed: (gig) => `🎉 Gig confirmed: ${gig}`,
    gigCancelled: (gig) => `❌ Gig cancelled: ${gig}`,
    setlistPublished: (gig, again, songs, sets) =>
      `📋 Setlist ${again ? 'updated' : 'published'}: ${gig} – ${songs} ` +
      `${songs === 1 ? 'song' : 'songs'} in ${sets} ${sets === 1 ? 'set' : 'sets'}`,
    surveyOpened: (by, title) => `🗳️ New survey from ${by}: “${title}”`
  }
}
