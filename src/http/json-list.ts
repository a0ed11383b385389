/** The scratch space kept between lists: the largest list of a big band (3,000 gigs: ~1.2 MB). */
const KEPT_SCRATCH_BYTES = 2 * 1024 * 1024
const EMPTY_SCRATCH_BYTES = 64 * 1024
const [OPEN, COMMA, CLOSE] = [0x5b, 0x2c, 0x5d]

/**
 * Where lists are written before their answer is cut out: one buffer for every list (a list is
 * made synchronously, so two never share it).
 */
let scratch = Buffer.allocUnsafeSlow(EMPTY_SCRATCH_BYTES)

/**
 * The JSON array of a long list, each item written out as UTF-8 as soon as it is serialized: the
 * bytes are the array serializer's (`[`, the items joined by `,`, `]`; `serialize` is the item
 * schema's, e.g. reply.compileSerializationSchema), and `rows` may be an iterator reading them
 * from the database one at a time. Why: under npm start's --optimize-for-size the young generation
 * is ~1 MB. An item's string is a tree of the serializer's small pieces until it is flattened;
 * kept in an array with others (or as buffers to be joined later) they outlive two scavenges and
 * are promoted, megabytes per list of thousands, and bring a full collection of the whole heap
 * (~40 MB, mostly the app) every other large list. Written here at once, they die young.
 */
export function jsonList<R, T> (
  rows: Iterable<R>,
  toItem: (row: R) => T,
  serialize: (item: T) => string
): Buffer {
  scratch[0] = OPEN
  let used = 1
  for (const row of rows) {
    const text = serialize(toItem(row))
    // A UTF-16 unit is at most three bytes of UTF-8 (room checked without measuring the text),
    // and a comma and the closing bracket.
    const room = used + text.length * 3 + 2
    if (room > scratch.length) {
      const larger = Buffer.allocUnsafeSlow(Math.max(room, scratch.length * 2))
      scratch.copy(larger, 0, 0, used)
      scratch = larger
    }
    if (used > 1) scratch[used++] = COMMA
    used += scratch.write(text, used)
  }
  scratch[used++] = CLOSE
  const body = Buffer.from(scratch.subarray(0, used))
  if (scratch.length > KEPT_SCRATCH_BYTES) scratch = Buffer.allocUnsafeSlow(EMPTY_SCRATCH_BYTES)
  return body
}
