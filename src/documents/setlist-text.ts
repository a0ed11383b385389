import { entryLength, formatDate, formatLength, joinPresent } from './format.js'
import type { GigDocument } from './gig-document.js'
import { addSecondsLocal, timeOf } from '#shared/local-time.js'
import type { DocumentLanguage } from './labels.js'
import { showKey } from '#shared/keys.js'

/**
 * A setlist as plain text (for a chat message or an e-mail): header, each set with its songs and
 * times, the breaks, the total. After the show the live record is marked like in the PDF.
 */
export function renderSetlistText (doc: GigDocument, language: DocumentLanguage = 'de'): string {
  const { gig } = doc
  const lines = [
    gig.name,
    doc.programme?.subtitle ??
      joinPresent(
        [
          formatDate(gig.date),
          joinPresent([gig.venueName, gig.venueCity]),
          `Beginn ${gig.startTime ?? `${timeOf(doc.startAt)} (geplant)`}`
        ],
        ' · '
      ),
    ''
  ]
  if (doc.sets.length === 0) lines.push('Noch keine Setlist.')
  for (const set of doc.sets) {
    lines.push(
      `${set.name}  ${set.start}–${set.end}  (${formatLength(set.durationSeconds)}, ` +
        `${set.entries.length} Titel)`
    )
    for (const entry of set.entries) {
      const key = showKey(entry.song.key, language, 'short')
      const details = joinPresent([key, entry.song.leadSinger])
      const length = entryLength(entry)
      const marks = [
        doc.liveUsed && entry.status === 'skipped' ? ' (ausgelassen)' : '',
        doc.liveUsed && entry.inserted ? ' (+ eingefügt)' : ''
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
      lines.push(`  Pause ${formatLength(set.breakAfterSeconds)}  (${set.end}–${end})`)
    }
    lines.push('')
  }
  if (doc.sets.length > 0) {
    const songs = doc.sets.reduce((n, s) => n + s.entries.length, 0)
    lines.push(
      `Gesamt: ${formatLength(doc.totalSeconds)} · ${timeOf(doc.startAt)}–${timeOf(doc.endAt)} · ` +
        `${songs} Titel in ${doc.sets.length} ${doc.sets.length === 1 ? 'Set' : 'Sets'}`
    )
  }
  return lines.join('\n') + '\n'
}
