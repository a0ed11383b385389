// Keys in the reader's language: the web app's side of src/shared/keys.ts.
import { canonicalKey, playedKey, showKey } from '$shared/keys'
import { i18n, t } from '$lib/i18n/index.svelte'

/**
 * A song's stored key as this reader writes it ("B♭ major" / "B-Dur"; short: "B♭" / "Gm");
 * an old key that could not be read as written; '' for none.
 */
export const keyLabel = (stored: string | null | undefined, style: 'long' | 'short' = 'long') =>
  showKey(stored, i18n.language, style) ?? ''

/** The key a gig plays a song in (moved by the entry's transposition), in the reader's words. */
export const playedKeyLabel = (
  stored: string | null | undefined,
  semitones: number,
  style: 'long' | 'short' = 'long'
) => keyLabel(playedKey(stored, semitones), style)

const signed = (n: number) => (n > 0 ? `+${n}` : `−${-n}`)

/**
 * One choice of the setlist editor's `Key for this gig`: the key it will sound in with the
 * semitones ("E major (+2)"); unmoved the key alone; a song without a readable key the semitones.
 */
export function gigKeyChoice (stored: string | null | undefined, semitones: number): string {
  const key = canonicalKey(stored) ? playedKeyLabel(stored, semitones) : ''
  if (semitones === 0) return key || t('setlist.keyAsWritten')
  return key ? `${key} (${signed(semitones)})` : signed(semitones)
}

/**
 * The key line over a chart: "Key E major"; with a capo what it sounds in and the shapes the
 * guitarist plays ("Sounds in A · Capo 2 · G shapes"). '' when there is nothing to say.
 * `semitones`: the gig's transposition (and this phone's own). The chords stay as they sound, like
 * the key, the setlists and Next: the rest of the band reads them too (docs/web.md).
 */
export function keyLine (
  stored: string | null | undefined,
  semitones: number,
  capo: number | null
): string {
  const sounds = playedKeyLabel(stored, semitones, 'short')
  if (!capo) return sounds ? t('chart.key', { key: playedKeyLabel(stored, semitones) }) : ''
  const shapes = canonicalKey(stored) ? playedKeyLabel(stored, semitones - capo, 'short') : ''
  if (!shapes) return [sounds, t('chart.capo', { n: capo })].filter(Boolean).join(' · ')
  return t('chart.soundsCapo', { key: sounds, n: capo, shapes })
}

/** A setlist row's key as played, its capo and what follows: "E · Capo 2 · Lena". */
export const playedKeyFacts = (
  stored: string | null | undefined,
  semitones: number,
  capo: number | null,
  ...more: (string | null | undefined)[]
) =>
  [playedKeyLabel(stored, semitones, 'short'), capo ? t('chart.capo', { n: capo }) : '', ...more]
    .filter(Boolean)
    .join(' · ')
