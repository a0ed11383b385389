import { formatDate, joinPresent } from './document-format.js'

// The texts of the chat notices (German, like the band's documents). Plain text with bare links:
// Mattermost and Slack both link them, and their markup languages differ.

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

const song = (s: { title: string; artist: string | null }) =>
  `„${s.title}“${s.artist ? ` (${s.artist})` : ''}`

const gigLine = (g: GigFacts) =>
  joinPresent(
    [
      `„${g.name}“`,
      `${formatDate(g.date)}${g.startTime ? ` ${g.startTime}` : ''}`,
      joinPresent([g.venueName, g.venueCity])
    ],
    ' · '
  )

/** The message text; `baseUrl` (PUBLIC_URL) adds a link to the web app's page. */
export function noticeText (notice: Notice, baseUrl?: string): string {
  const link = (path: string) => (baseUrl ? `\n${baseUrl}/app/${path}` : '')
  switch (notice.type) {
    case 'song.proposed':
      return (
        `🎵 Neuer Songvorschlag von ${notice.by}: ${song(notice.song)} – bitte abstimmen.` +
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
        `🗳️ Neue Umfrage von ${notice.by}: „${notice.survey.title}“` +
        link(`surveys/${notice.survey.id}`)
      )
  }
}
