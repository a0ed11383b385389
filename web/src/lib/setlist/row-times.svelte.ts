import { SvelteMap } from 'svelte/reactivity'
import type { SetlistTiming } from '$shared/timing.js'
import { formatDuration, formatTime } from '../format'
import { i18n } from '../i18n/index.svelte'
import type { DraftSet } from './model'

/**
 * The setlist editor's clock times and lengths as text. A clock time is formatted once per
 * language (Intl is slow, and a set has few distinct times). Each row's time and length is kept
 * per entry key in `shown`: a move changes the text of a few rows, so only those rows update
 * (200 rows all reading the timing would all re-render on every move). Both read the language,
 * so what shows a time follows a change of language.
 */
export class RowTimes {
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- a cache, never rendered
  #times = new Map<string, string>()
  #timesLocale = ''
  readonly shown = new SvelteMap<string, { at: string; length: string }>()
  // The figures `shown` was last written from (compared here instead of reading `shown`, which
  // would make the caller's effect depend on every row's entry and run again after writing it).
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- never rendered
  #shownFrom = new Map<string, { start: string; seconds: number }>()
  #shownLocale = ''

  timeText = (time: string): string => {
    if (this.#timesLocale !== i18n.locale) {
      this.#times.clear()
      this.#timesLocale = i18n.locale
    }
    let text = this.#times.get(time)
    if (text === undefined) {
      text = formatTime(time)
      this.#times.set(time, text)
    }
    return text
  }

  /** Brings `shown` up to date with the sets (plain objects) and their timing. */
  update (sets: DraftSet[], timing: SetlistTiming): void {
    if (this.#shownLocale !== i18n.locale) {
      this.#shownFrom.clear()
      this.#shownLocale = i18n.locale
    }
    sets.forEach((set, setIndex) => {
      set.entries.forEach((entry, index) => {
        const entryTiming = timing.sets[setIndex]?.entries[index]
        if (!entryTiming) return
        const { plannedStart: start, durationSeconds: seconds } = entryTiming
        const old = this.#shownFrom.get(entry.key)
        if (old?.start === start && old.seconds === seconds) return
        this.#shownFrom.set(entry.key, { start, seconds })
        // A free-text entry without a length of its own takes no time and shows none.
        const none = entry.songId === null && entry.durationSeconds === null
        this.shown.set(entry.key, {
          at: this.timeText(start),
          length: none ? '' : formatDuration(seconds)
        })
      })
    })
  }
}
