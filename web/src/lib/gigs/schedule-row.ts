import type { Schedule } from '$lib/api/types'
import { t } from '$lib/i18n/index.svelte'

type Row = Schedule['items'][number]

/**
 * A running order row's title in the reader's language: the API sends the gig's own times as
 * codes (`kind`) with no title, so no English word reaches a German screen.
 */
export const scheduleRowTitle = (row: Row): string =>
  row.title ?? t(`schedule.kind.${row.kind}`)

/** What the row says below its title: the band's notes, or a set's song count. */
export const scheduleRowNotes = (row: Row): string | null =>
  row.kind === 'set' && row.songCount !== null
    ? t('schedule.songCount', { count: row.songCount })
    : row.notes
