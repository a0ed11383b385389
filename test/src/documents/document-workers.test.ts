import { test } from 'node:test'
import assert from 'node:assert/strict'
import XLSX from 'xlsx'
import { DocumentWorkers, LOGOS_IN_FLIGHT, WorkersBusyError } from '#src/documents/pool.js'
import { bigGig, contextFixture, documentLogo } from '#test/document-fixtures.js'
import { pngFile, twoColourPng } from '#test/image-fixtures.js'
import { pdfImages, pdfText } from '#test/pdf-tools.js'

// Documents rendered in worker threads, and the logo checks that run there: a bounded number at
// once, and an image the PDF library fails on costs the logo, not the sheet or the thread.

test('documents render in worker threads: setlist, schedule with logo, GEMA', async () => {
  const workers = new DocumentWorkers(1)
  try {
    const setlist = await workers.render({
      kind: 'setlist',
      doc: bigGig(1, 4),
      ctx: contextFixture(),
      style: 'print'
    })
    assert.match(pdfText(setlist), /Song 4/)
    assert.equal(workers.startedThreads, 1)
    const schedule = await workers.render({
      kind: 'schedule',
      doc: bigGig(1, 2),
      ctx: contextFixture({ logo: documentLogo(twoColourPng([200, 30, 90])) })
    })
    assert.match(pdfText(schedule), /Ablaufplan/)
    const gema = await workers.render({ kind: 'gema', doc: bigGig(1, 2), ctx: contextFixture() })
    const rows = XLSX.utils.sheet_to_json<string[]>(
      XLSX.read(gema, { type: 'buffer' }).Sheets['Titelliste']!,
      { header: 1 }
    )
    assert.ok(rows.some((row) => row[1] === 'Song 2'))
  } finally {
    await workers.close()
  }
})

test('logo checks: at most LOGOS_IN_FLIGHT at once, the next ones refused at once', async () => {
  const workers = new DocumentWorkers(1)
  try {
    const logo = twoColourPng([200, 30, 90], [255, 255, 255], 600)
    const checks = Array.from({ length: LOGOS_IN_FLIGHT + 3 }, () => workers.prepareLogo(logo))
    const outcomes = await Promise.allSettled(checks)
    const busy = outcomes.filter(
      (o) => o.status === 'rejected' && o.reason instanceof WorkersBusyError
    )
    assert.equal(busy.length, 3)
    const prepared = outcomes.filter((o) => o.status === 'fulfilled' && o.value.ok)
    assert.equal(prepared.length, LOGOS_IN_FLIGHT)
    // The places are given back, also by a refused file.
    assert.equal((await workers.prepareLogo(Buffer.from('not an image'))).ok, false)
    const again = await Promise.all(
      Array.from({ length: LOGOS_IN_FLIGHT }, () => workers.prepareLogo(logo))
    )
    assert.ok(again.every((p) => p.ok))
  } finally {
    await workers.close()
  }
})

test(
  'an image pdfkit fails on inside its zlib callback costs the logo, not the sheet or the thread',
  async () => {
    // RGBA makes pdfkit inflate the image to split off its alpha channel, in a zlib callback.
    const broken = pngFile({ width: 4, height: 4 }, Buffer.from('this is no zlib stream'))
    // (Only in a worker: on this thread, node:test would count the thrown error as a failure.)
    const ctx = contextFixture({ logo: { accent: '#c81e5a', watermark: broken } })
    const workers = new DocumentWorkers(1)
    try {
      const pdf = await workers.render({ kind: 'schedule', doc: bigGig(1, 2), ctx })
      assert.match(pdfText(pdf), /Ablaufplan/)
      assert.equal(pdfImages(pdf).length, 0, 'rendered without the logo')
      // The same thread renders the next document.
      const doc = bigGig(1, 2)
      const again = await workers.render({ kind: 'setlist', doc, ctx, style: 'print' })
      assert.match(pdfText(again), /Song 2/)
      assert.equal(workers.startedThreads, 1)
    } finally {
      await workers.close()
    }
  }
)
