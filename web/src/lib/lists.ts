/** A list typed as one line, separated by commas: "Guitar, Vocals" → ['Guitar', 'Vocals']. */
export const splitList = (text: string): string[] =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)

/** A list typed one entry per line (config lists); blank lines dropped. */
export const splitLines = (text: string): string[] =>
  text
    .split('\n')
    .map((item) => item.trim())
    .filter(Boolean)
