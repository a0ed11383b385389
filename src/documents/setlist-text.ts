import { entryLength, formatDateIn, formatLength, joinPresent } from './format.js'
import type { GigDocument } from './gig-document.js'
import { addSecondsLocal, timeOf } from '#shared/local-time.js'
import { SETLIST_LABELS, type DocumentLanguage } from './labels.js'
import { playedKey, showKey } from '#shared/keys.js'

/**
 * A setlist as plain text (for a chat message or an e-mail): header, each set with its songs and
 * times, the breaks, the total. After the show the live record is marked like in the PDF.
 */
export function renderSetlistText (doc: GigDocument, language: DocumentLanguage = 'de'): string {
  const { gig } = doc
  const labels = SETLIST_LABELS[language]
  const lines = [
    gig.name,
    doc.programme?.subtitle ??
      joinPresent(
        [
          formatDateIn(gig.date, language),
          joinPresent([gig.venueName, gig.venueCity]),
          labels.start(gig.startTime ?? timeOf(doc.startAt), gig.startTime === null)
        ],
        ' · '
      ),
    ''
  ]
  if (doc.sets.length === 0) lines.push(labels.empty)
  for (const set of doc.sets) {
    lines.push(
      `${set.name}  ${set.start}–${set.end}  (${formatLength(set.durationSeconds)}, ` +
        `${labels.songs(set.entries.length)})`
    )
    for (const entry of set.entries) {
      const key = showKey(playedKey(entry.song.key, entry.transpose ?? 0), language, 'short')
      const details = joinPresent([key, entry.song.leadSinger])
      const length = entryLength(entry)
      const marks = [
        doc.liveUsed && entry.status === 'skipped' ? ` ${labels.skipped}` : '',
        doc.liveUsed && entry.inserted ? ` (${labels.inserted})` : ''
      ].join('')
      lines.push(
        `${String(entry.number).padStart(3)}. ${entry.plannedStart}  ` +
          `${joinPresent([entry.song.title, entry.song.artist], ' – ')}` +
          `${details ? `  [${details}]` : ''}${length ? `  ${length}` : ''}${marks}` +
          `${entry.notes ? `\n       ${entry.notes.replace(/\s*\n\s*/g, ' ')}` : ''}`
      )
    }
    if (!set.isLast) {
      const end = timeOf(addSecondsLocal(set.endAt, set.breakAfterSeconds))
      lines.push(`  ${labels.pause(formatLength(set.breakAfterSeconds), set.end, end)}`)
    }
    lines.push('')
  }
  if (doc.sets.length > 0) {
    const songs = doc.sets.reduce((n, s) => n + s.entries.length, 0)
    const [from, to] = [timeOf(doc.startAt), timeOf(doc.endAt)]
    lines.push(
      labels.total(formatLength(doc.totalSeconds), from, to, songs, doc.sets.length, ' · ')
    )
  }
  return lines.join('\n') + '\n'
}
