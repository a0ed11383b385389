import { formatDateIn, joinPresent } from '#src/documents/format.js'
import type { DocumentLanguage } from '#src/documents/labels.js'
import { NOTICE_LABELS } from './labels.js'
import { chatText, type ChatFlavor } from './markup.js'

// The texts of the chat notices, in the band's language (words in ./labels.ts). Plain text with
// bare links: Mattermost and Slack both link them, and their markup languages differ. Every
// member-written field passes `chatText` for the target (see notice-markup.ts); the link is ours
// (PUBLIC_URL).

interface GigFacts {
  id: number
  name: string
  date: string
  startTime: string | null
  venueName: string | null
  venueCity: string | null
}

interface SongFacts {
  id: number
  title: string
  artist: string | null
}

export type Notice =
  | { type: 'song.proposed'; song: SongFacts; by: string }
  | { type: 'song.accepted'; song: SongFacts }
  | { type: 'gig.created' | 'gig.confirmed' | 'gig.cancelled'; gig: GigFacts }
  | {
    type: 'setlist.published'
    gig: GigFacts
    sets: number
    songs: number
    /** Published before: this is an update. */
    again: boolean
  }
  | {
    type: 'survey.opened'
    survey: { id: number; title: string; closesAt: string | null }
    by: string
  }

export type NoticeType = Notice['type']

export interface NoticeTarget {
  /** PUBLIC_URL: adds a link to the web app's page. */
  baseUrl?: string
  flavor: ChatFlavor
  /** The band's language (`documentLanguage(locale)`), read when the notice is made. */
  language: DocumentLanguage
}

/** The message text for the target's chat, in the target's language. */
export function noticeText (notice: Notice, target: NoticeTarget): string {
  const { baseUrl } = target
  const { language } = target
  const words = NOTICE_LABELS[language]
  const t = (text: string | null) => (text ? chatText(text, target.flavor) : text)
  const song = (s: { title: string; artist: string | null }) =>
    `${words.quote(t(s.title)!)}${s.artist ? ` (${t(s.artist)})` : ''}`
  const gigLine = (g: GigFacts) =>
    joinPresent(
      [
        words.quote(t(g.name)!),
        `${formatDateIn(g.date, language)}${g.startTime ? ` ${g.startTime}` : ''}`,
        joinPresent([t(g.venueName), t(g.venueCity)])
      ],
      ' · '
    )
  const link = (path: string) => (baseUrl ? `\n${baseUrl}/app/${path}` : '')
  switch (notice.type) {
    case 'song.proposed':
      return (
        words.songProposed(t(notice.by)!, song(notice.song)) + link(`songs/${notice.song.id}`)
      )
    case 'song.accepted':
      return words.songAccepted(song(notice.song)) + link(`songs/${notice.song.id}`)
    case 'gig.created':
      return words.gigCreated(gigLine(notice.gig)) + link(`gigs/${notice.gig.id}`)
    case 'gig.confirmed':
      return words.gigConfirmed(gigLine(notice.gig)) + link(`gigs/${notice.gig.id}`)
    case 'gig.cancelled':
      return words.gigCancelled(gigLine(notice.gig)) + link(`gigs/${notice.gig.id}`)
    case 'setlist.published':
      return (
        words.setlistPublished(gigLine(notice.gig), notice.again, notice.songs, notice.sets) +
        link(`gigs/${notice.gig.id}`)
      )
    case 'survey.opened':
      return (
        words.surveyOpened(t(notice.by)!, t(notice.survey.title)!) +
        link(`surveys/${notice.survey.id}`)
      )
  }
}
