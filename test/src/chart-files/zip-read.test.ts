import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { zipSync } from 'fflate'
import { readZip, ZipError, type ZipLimits } from '#src/chart-files/zip-read.js'
import { chartsOfText, decodeText, isClutter } from '#src/chart-files/chart-file.js'
import { bombZip } from '#test/plugins/charts/upload.js'

const limits: ZipLimits = {
  maxEntryBytes: 1000, maxEntries: 10, maxTotalBytes: 1500, refuse: () => null
}
const bytes = (text: string) => new TextEncoder().encode(text)
const archive = (files: Record<string, Uint8Array>, level: 0 | 6 = 6) =>
  Buffer.from(zipSync(files, { level }))

describe('the zip reader', () => {
  it('reads stored and deflated entries, skips directories, refuses by name first', () => {
    const stored = archive({ 'a/': new Uint8Array(0), 'a/x.cho': bytes('x'), 'b.cho': bytes('b') },
      0)
    assert.deepEqual(readZip(stored, limits).map((e) => [e.name, e.data?.toString()]),
      [['a/x.cho', 'x'], ['b.cho', 'b']])
    const named = readZip(archive({ 'c.jpg': bytes('c') }),
      { ...limits, refuse: () => ({ reason: 'unsupported_type', message: 'no' }) })
    assert.deepEqual(named[0]!.refused?.reason, 'unsupported_type')
  })

  it('stops an entry at its limit and the archive at its total', () => {
    const zip = archive({
      'a.cho': new Uint8Array(900),
      'b.cho': new Uint8Array(900),
      'c.cho': new Uint8Array(1001)
    })
    const [a, b, c] = readZip(zip, limits)
    assert.equal(a!.data?.length, 900)
    assert.match(b!.refused?.message ?? '', /the archive expands to more than 1500/)
    assert.equal(c!.refused?.reason, 'too_large')
    const stored = archive({ 'big.cho': new Uint8Array(1001) }, 0)
    assert.equal(readZip(stored, limits)[0]!.refused?.reason, 'too_large')
    assert.equal(readZip(bombZip('x.cho', 1), limits)[0]!.refused?.reason, 'too_large')
  })

  it('refuses broken entries one by one and unreadable archives whole', () => {
    const good = archive({ 'a.cho': bytes('hello hello hello') })
    const local = good.indexOf('PK\u0003\u0004')
    const central = good.indexOf('PK\u0001\u0002')
    const patch = (at: number, write: (b: Buffer) => void) => {
      const copy = Buffer.from(good)
      write(copy.subarray(at))
      return readZip(copy, limits)[0]!.refused?.message
    }
    assert.equal(patch(central, (b) => b.writeUInt16LE(1, 8)), 'encrypted')
    assert.equal(patch(central, (b) => b.writeUInt16LE(12, 10)),
      'compression method 12 is not read')
    assert.equal(patch(central, (b) => b.writeUInt32LE(0, 16)), 'checksum mismatch')
    assert.equal(patch(central, (b) => b.writeUInt32LE(99999, 20)), 'cut short')
    assert.equal(patch(central, (b) => b.writeUInt32LE(99999, 42)), 'no entry')
    assert.equal(patch(local + 30 + 5, (b) => b.fill(0xff, 0, 4)), 'not readable')
    const fails = (zip: Buffer, message: RegExp) =>
      assert.throws(() => readZip(zip, limits),
        (e) => e instanceof ZipError && message.test(e.message))
    fails(Buffer.from('PK'), /too short/)
    fails(Buffer.alloc(100), /no zip central directory/)
    const eocd = good.lastIndexOf('PK\u0005\u0006')
    const edit = (write: (b: Buffer) => void) => {
      const copy = Buffer.from(good)
      write(copy.subarray(eocd))
      return copy
    }
    fails(edit((b) => b.writeUInt16LE(0xffff, 10)), /zip64/)
    fails(edit((b) => b.writeUInt16LE(11, 10)), /more than 10 entries/)
    fails(edit((b) => b.writeUInt32LE(0, 16)), /broken central directory/)
  })
})

describe('chart files', () => {
  it('reads UTF-16 with its mark and refuses what is no text', () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{t: Lé}', 'utf16le')])
    assert.equal(decodeText(le), '{t: Lé}')
    const be = Buffer.from(Buffer.concat([Buffer.from([0xfe, 0xff]),
      Buffer.from('{t: B}', 'utf16le').swap16()]))
    assert.equal(decodeText(be), '{t: B}')
    assert.deepEqual(decodeText(bytes('a\u202Eb')), {
      reason: 'binary', message: 'not a text file (it holds control characters)'
    })
  })

  it('reads the song fields a file gives and leaves out what is out of range', () => {
    const [song] = chartsOfText('x/Fallback Name.cho',
      '{key: nonsense}\n{tempo: 900}\n{duration: 250}\n[C]x', 'english')
    assert.deepEqual([song!.title, song!.key, song!.tempoBpm, song!.durationSeconds],
      ['Fallback Name', null, null, 250])
    const [long] = chartsOfText('dir/ .cho', '{duration: 3 min}\n{tempo: 10}', 'english')
    assert.deepEqual([long!.title, long!.durationSeconds, long!.tempoBpm], ['Untitled', null, null])
    assert.equal(chartsOfText('a.cho', '{duration: 1:00:00}', 'english')[0]!.durationSeconds, 3600)
    assert.ok(isClutter('__MACOSX/a.cho') && isClutter('x/.DS_Store') && !isClutter('a.cho'))
  })
})
