import { isIPv6 } from 'node:net'

/**
 * The key of a client address for rate limits and fair turns. An IPv6 client usually holds a
 * whole /64 (one subnet per line or phone, SLAAC and privacy addresses within it): keyed by its
 * own address it could take a fresh key per request. IPv4 addresses, and IPv4 mapped into IPv6
 * (`::ffff:192.0.2.1`), stand for themselves.
 */
export function addressKey (address: string | undefined): string {
  if (!address) return 'unknown'
  const zoneless = address.split('%')[0]!
  if (!isIPv6(zoneless)) return zoneless
  const groups = expandIPv6(zoneless.toLowerCase())
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return `${groups[6]! >> 8}.${groups[6]! & 255}.${groups[7]! >> 8}.${groups[7]! & 255}`
  }
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64`
}

/** The eight 16-bit groups of a valid IPv6 address (`::` and a dotted IPv4 tail expanded). */
function expandIPv6 (address: string): number[] {
  let text = address
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text)
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number]
    text = text.slice(0, dotted.index) +
      `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head, tail] = text.split('::') as [string, string | undefined]
  const parse = (part: string) => (part ? part.split(':').map((g) => parseInt(g, 16)) : [])
  const left = parse(head)
  const right = tail === undefined ? [] : parse(tail)
  const zeros = tail === undefined ? [] : new Array<number>(8 - left.length - right.length).fill(0)
  return [...left, ...zeros, ...right]
}
