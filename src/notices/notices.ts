import { formatDate, joinPresent } from '#src/documents/format.js'
import { chatText, type ChatFlavor } from './markup.js'

// The texts of the chat notices (German, like the band's documents). Plain text with bare links:
// Mattermost and Slack both link them, and their markup languages differ. Every member-written
// field passes `chatText` for the target (see notice-markup.ts); the link is ours (PUBLIC_URL).

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
}

/** The message text for the target's chat. */
export function noticeText (notice: Notice, target: NoticeTarget): string {
  const { baseUrl } = target
  const t = (text: string | null) => (text ? chatText(text, target.flavor) : text)
  const song = (s: { title: string; artist: string | null }) =>
    `„${t(s.title)}“${s.artist ? ` (${t(s.artist)})` : ''}`
  const gigLine = (g: GigFacts) =>
    joinPresent(
      [
        `„${t(g.name)}“`,
        `${formatDate(g.date)}${g.startTime ? ` ${g.startTime}` : ''}`,
        joinPresent([t(g.venueName), t(g.venueCity)])
      ],
      ' · '
    )
  const link = (path: string) => (baseUrl ? `\n${baseUrl}/app/${path}` : '')
  switch (notice.type) {
    case 'song.proposed':
      return (
        `🎵 Neuer Songvorschlag von ${t(notice.by)}: ${song(notice.song)} – bitte abstimmen.` +
        link(`songs/${notice.song.id}`)
      )
    case 'song.accepted':
      return `✅ Vorschlag angenommen: ${song(notice.song)}` + link(`songs/${notice.song.id}`)
    case 'gig.created':
      return `📅 Neuer Auftritt: ${gigLine(notice.gig)}` + link(`gigs/${notice.gig.id}`)
    case 'gig.confirmed':
      return `🎉 Auftritt bestätigt: ${gigLine(notice.gig)}` + link(`gigs/${notice.gig.id}`)
    case 'gig.cancelled':
      return `❌ Auftritt abgesagt: ${gigLine(notice.gig)}` + link(`gigs/${notice.gig.id}`)
    case 'setlist.published':
      return (
        `📋 Setlist ${notice.again ? 'aktualisiert' : 'veröffentlicht'}: ` +
        `${gigLine(notice.gig)} – ${notice.songs} Titel in ${notice.sets} ` +
        `${notice.sets === 1 ? 'Set' : 'Sets'}` +
        link(`gigs/${notice.gig.id}`)
      )
    case 'survey.opened':
      return (
        `🗳️ Neue Umfrage von ${t(notice.by)}: „${t(notice.survey.title)}“` +
        link(`surveys/${notice.survey.id}`)
      )
  }
}
