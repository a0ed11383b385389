import { MAX_CHART_BYTES } from '#schemas/songs.js'

/**
 * A chart within the 64 KiB limit whose {chorus} recalls would expand it without bound: a chorus
 * of `chorusLines` short lines, recalled as often as the rest of the 64 KiB allows (300 lines:
 * ~7,100 recalls, 2.1 million lines without the recall limits).
 */
export function recallBomb (chorusLines = 300): string {
  const head = `{soc}\n${'[C]a\n'.repeat(chorusLines)}{eoc}\n`
  const recalls = Math.floor((MAX_CHART_BYTES - head.length) / '{chorus}\n'.length)
  return head + '{chorus}\n'.repeat(recalls)
}
