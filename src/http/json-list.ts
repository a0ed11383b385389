/** Rows per slice: a few dozen KB of JSON, whose objects die young. */
const SLICE_ROWS = 200

/**
 * The JSON array of a long list, built a slice of rows at a time: each slice's items are made,
 * serialized and turned into bytes before the next, so a list of thousands never holds all its
 * items and a megabyte string at once. Under npm start's --optimize-for-size the young generation
 * is small: a whole list and its string outlived it, were promoted, and every large answer paid a
 * full collection of the heap. The bytes are the array serializer's: `[`, the items joined by `,`,
 * `]` (`serialize` is the item schema's, e.g. reply.compileSerializationSchema). `rows` may be
 * an iterator reading them from the database one at a time.
 */
export function jsonList<R, T> (
  rows: Iterable<R>,
  toItem: (row: R) => T,
  serialize: (item: T) => string,
  sliceRows = SLICE_ROWS
): Buffer {
  const parts: Buffer[] = [Buffer.from('[')]
  let slice: string[] = []
  const flush = () => {
    parts.push(Buffer.from(`${parts.length === 1 ? '' : ','}${slice.join(',')}`))
    slice = []
  }
  for (const row of rows) {
    slice.push(serialize(toItem(row)))
    if (slice.length === sliceRows) flush()
  }
  if (slice.length > 0) flush()
  parts.push(Buffer.from(']'))
  return Buffer.concat(parts)
}
