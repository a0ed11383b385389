import { test } from 'node:test'
import assert from 'node:assert/strict'
import XLSX from 'xlsx'
import { asciiFilename, contentDisposition, slug } from '#src/http/content-disposition.js'
import { formatDuration } from '#src/documents/format.js'
import { renderSetlistPdf, setlistDocDefinition } from '#src/documents/setlist-pdf.js'
import { renderSchedulePdf, runningOrder } from '#src/documents/schedule-pdf.js'
import {
  GEMA_COLUMNS,
  gemaWorkbook,
  renderGemaXlsx,
  splitPersonName
} from '#src/documents/gema-xlsx.js'
import { assembleGigDocument } from '#src/documents/gig-document.js'
import {
  bigGig,
  contextFixture,
  documentLogo,
  gigFixture,
  songFixture,
  TIMING
} from '#test/document-fixtures.js'
import { twoColourPng } from '#test/image-fixtures.js'
import { pdfInfo, pdfText } from '#test/pdf-tools.js'

test('content disposition: ASCII fallback and RFC 8187 filename* for umlauts', () => {
  assert.equal(
    contentDisposition('attachment', 'GEMA-2026-06-13-Sommerfest.xlsx'),
    'attachment; filename="GEMA-2026-06-13-Sommerfest.xlsx"'
  )
  assert.equal(
    contentDisposition('inline', 'Setlist-2026-06-13-Hochzeit-Müller-Söhne.pdf'),
    'inline; filename="Setlist-2026-06-13-Hochzeit-Mueller-Soehne.pdf";' +
      " filename*=UTF-8''Setlist-2026-06-13-Hochzeit-M%C3%BCller-S%C3%B6hne.pdf"
  )
  assert.equal(asciiFilename('Straße "x"\\é'), 'Strasse _x__e')
  assert.equal(slug('Hochzeit Müller & Söhne!'), 'Hochzeit-Müller-Söhne')
  assert.equal(slug('***'), 'gig')
  assert.doesNotMatch(contentDisposition('inline', 'a\r\nb.pdf'), /[\r\n]/)
})

test('durations keep their hours', () => {
  assert.equal(formatDuration(225), '3:45')
  assert.equal(formatDuration(3725), '1:02:05')
  assert.equal(formatDuration(0), '0:00')
})

function liveGig () {
  const doc = bigGig(4, 15)
  const entries = doc.sets.flatMap((s) => s.entries)
  entries[0]!.status = 'played'
  entries[0]!.rating = 3
  entries[1]!.status = 'skipped'
  entries[2]!.status = 'played'
  entries[2]!.inserted = true
  doc.liveUsed = true
  return doc
}

test(
  'setlist PDF: titles in order, header, breaks, total, live marks, umlauts, metadata, few pages',
  async () => {
    const doc = liveGig()
    const pdf = await renderSetlistPdf(doc, contextFixture())
    const text = pdfText(pdf)
    const info = pdfInfo(pdf)
    assert.match(info, /Title:\s+Setlist – Hochzeit Müller & Söhne – Sa, 13\.06\.2026/)
    assert.match(info, /Page size:\s+595\.2\d* x 841\.8\d* pts \(A4\)/)
    const pages = Number(/Pages:\s+(\d+)/.exec(info)![1])
    assert.ok(pages <= 3, `60 songs on ${pages} pages`)
    assert.match(text, /Hochzeit Müller & Söhne/)
    assert.match(text, /Schloss Weißenstein, Großheubach/)
    assert.match(text, /Beginn 20:00/)
    // Titles in planned order (the long ones wrap onto the next line).
    let last = -1
    for (const entry of doc.sets.flatMap((s) => s.entries)) {
      const probe = entry.song.title.startsWith('Ein sehr')
        ? 'Ein sehr, sehr langer Titel'
        : `${entry.song.title} `
      const at = text.indexOf(probe, last + 1)
      assert.ok(at > last, `${entry.song.title} after the previous title`)
      last = at
    }
    assert.match(text, /Song 2 \(ausgelassen\)/)
    assert.match(text, /Song 3 \+ eingefügt/)
    assert.match(text, /Song 1 ●●●/)
    assert.match(text, /Pause 10 min/)
    assert.match(text, /Set 4/)
    assert.match(text, /Gesamt: /)
    assert.match(text, new RegExp(`Seite 1 von ${pages}`))
    // The skipped title is struck through (and only that one).
    const struck =
      JSON.stringify(setlistDocDefinition(doc, contextFixture()).content).match(
        /"text":"[^"]*","fontSize":13,"bold":true,"color":"[^"]*","decoration":"lineThrough"/g
      ) ?? []
    assert.deepEqual(
      struck.map((m) => /"text":"([^"]*)"/.exec(m)![1]),
      ['Song 2']
    )
    const stage = await renderSetlistPdf(doc, contextFixture(), 'stage')
    const stageText = pdfText(stage)
    assert.match(stageText, /Song 2 \(ausgelassen\)/)
    assert.notEqual(stage.length, pdf.length)
  }
)

test(
  'setlist PDF before the show shows no live marks; an empty setlist still renders',
  async () => {
    const text = pdfText(await renderSetlistPdf(bigGig(1, 3), contextFixture()))
    assert.doesNotMatch(text, /ausgelassen|eingefügt|Live-Protokoll/)
    const empty = assembleGigDocument(
      {
        gig: gigFixture({ startTime: null, endTime: null, venueName: null, venueCity: null }),
        sets: [],
        entries: [],
        schedule: [],
        musicianCount: 0
      },
      TIMING
    )
    const emptyText = pdfText(await renderSetlistPdf(empty, contextFixture(), 'stage'))
    assert.match(emptyText, /Noch keine Setlist/)
    assert.match(emptyText, /Beginn 20:00 \(geplant\)/)
  }
)

test(
  'running order: schedule items, gig times and set blocks merged in time ' +
    'order; the end after midnight last',
  () => {
    const doc = bigGig(2, 3)
    doc.schedule.push(
      {
        id: 1,
        at: '2026-06-13T18:00',
        title: 'Abendessen',
        who: 'Band',
        where: 'Küche',
        notes: null
      },
      {
        id: 2,
        at: '2026-06-13T20:00',
        title: 'Begrüßung',
        who: 'Brautvater',
        where: null,
        notes: null
      }
    )
    const rows = runningOrder(doc)
    assert.deepEqual(
      rows.map((r) => `${r.at.slice(11)} ${r.title.split(' (')[0]}`),
      [
        '16:00 Get-in / Aufbau',
        '17:30 Soundcheck',
        '18:00 Abendessen',
        '19:00 Einlass',
        '20:00 Begrüßung',
        '20:00 Beginn',
        '20:00 Set 1',
        '20:12 Pause',
        '20:22 Set 2',
        '01:00 Ende'
      ]
    )
    assert.equal(rows.at(-1)!.at, '2026-06-14T01:00')
  }
)

test('schedule PDF: master data, running order, footer; with a logo and without', async () => {
  const doc = bigGig(2, 4)
  doc.schedule.push({
    id: 1,
    at: '2026-06-13T18:00',
    title: 'Abendessen für alle',
    who: 'Band',
    where: 'Küche',
    notes: 'vegetarisch'
  })
  const logo = documentLogo(twoColourPng([200, 30, 90]))
  for (const ctx of [
    contextFixture(),
    contextFixture({ logo }),
    contextFixture({ logo: { accent: '#c81e5a', watermark: Buffer.from('broken') } })
  ]) {
    const pdf = await renderSchedulePdf(doc, ctx)
    const info = pdfInfo(pdf)
    assert.match(info, /Title:\s+Ablaufplan – Hochzeit Müller & Söhne/)
    assert.match(info, /595\.2\d* x 841\.8\d* pts \(A4\)/)
    const text = pdfText(pdf)
    for (const expected of [
      'Stammdaten',
      'Jürgen Müller',
      '+49 170 1234567',
      'Schloßstraße 1, Großheubach',
      'Bestätigt',
      'Brautpaar-Tanz',
      'Abendessen für alle',
      'Soundcheck',
      'Set 1 (4 Titel',
      'Set 2 (4 Titel',
      'Seite 1 von 1',
      'Erstellt 01.06.2026 12:00 (Europe/Berlin)'
    ]) {
      assert.ok(text.includes(expected), `schedule PDF contains ${expected}`)
    }
    assert.ok(text.indexOf('Abendessen für alle') < text.indexOf('Set 1 (4 Titel'))
  }
})

test('schedule PDF: the running order rows follow the band\'s language', async () => {
  const doc = bigGig(2, 4)
  const english = pdfText(await renderSchedulePdf(doc, contextFixture({ locale: 'en-GB' })))
  for (const expected of ['Doors', 'Start', 'End', 'Set 1 (4 songs', 'Break (', 'What']) {
    assert.ok(english.includes(expected), `English running order contains ${expected}`)
  }
  // The rest of the sheet per language: test/src/documents/document-language.test.ts.
  assert.doesNotMatch(english, /Get-in \/ Aufbau|Titel,|Pause \(|Programmpunkt/)
  const german = pdfText(await renderSchedulePdf(doc, contextFixture({ locale: 'de-AT' })))
  for (const expected of ['Einlass', 'Beginn', 'Ende', 'Set 1 (4 Titel', 'Pause (']) {
    assert.ok(german.includes(expected), `German running order contains ${expected}`)
  }
  assert.doesNotMatch(german, /Doors|\bsongs\b|Break \(/)
})

test(
  'GEMA workbook: template header, 15 columns, performed works in order, ' +
    'people, hours, no formulas',
  () => {
    const doc = liveGig()
    const entries = doc.sets.flatMap((s) => s.entries)
    entries[3]!.song = songFixture(4, {
      title: '=HYPERLINK("http://evil","x")',
      composers: ['Müller, Hans-Jürgen', 'Beethoven', 'Ludwig van Beethoven'],
      lyricists: [],
      publisher: '@Verlag',
      gemaWorkNumber: '+123'
    })
    entries[4]!.seconds = 3725
    const book = XLSX.read(renderGemaXlsx(doc, contextFixture()), {
      type: 'buffer',
      cellFormula: true
    })
    const sheet = book.Sheets['Titelliste']!
    const rows = XLSX.utils.sheet_to_json<string[]>(sheet, {
      header: 1,
      blankrows: true,
      defval: ''
    })
    assert.equal(rows[0]![0], 'GEMA Musikfolge – Titelliste')
    const field = (label: string) => rows.find((r) => r[0] === label)?.[1]
    assert.equal(field('Veranstaltung'), 'Hochzeit Müller & Söhne')
    assert.equal(field('Band / Interpret'), 'Die Blechbläser')
    assert.equal(field('Datum'), '13.06.2026')
    assert.equal(field('Veranstaltungsort'), 'Schloss Weißenstein')
    assert.equal(field('Adresse'), 'Schloßstraße 1, Großheubach')
    assert.equal(field('Veranstalter'), 'Jürgen Müller, +49 170 1234567')
    assert.equal(field('Beginn'), '20:00')
    assert.equal(field('Ende'), '01:00')
    const headingIndex = rows.findIndex((r) => r[0] === 'Werknummer')
    assert.deepEqual(rows[headingIndex], [...GEMA_COLUMNS])
    assert.equal(GEMA_COLUMNS.length, 15)
    const data = rows.slice(headingIndex + 1)
    // 60 planned, one skipped: 59 works; inserted one included; order kept.
    assert.equal(data.length, 59)
    assert.deepEqual(
      data.slice(0, 3).map((r) => r[1]),
      ['Song 1', 'Song 3', '=HYPERLINK("http://evil","x")']
    )
    assert.equal(data[0]![3], 5)
    assert.equal(data[0]![5], 'Lennon / McCartney')
    assert.equal(data[0]![6], 'John / Paul')
    assert.equal(data[0]![7], 'Lennon')
    assert.equal(data[0]![12], 'Live')
    assert.equal(data[2]![5], 'Müller / Beethoven / Beethoven')
    assert.equal(data[2]![6], 'Hans-Jürgen /  / Ludwig van')
    assert.equal(data[3]![4], '1:02:05')
    // Formula injection: every text cell is a plain string cell, no formula anywhere.
    for (const [address, cell] of Object.entries(sheet)) {
      if (address.startsWith('!')) continue
      assert.equal((cell as XLSX.CellObject).f, undefined, `${address} has no formula`)
      if (typeof (cell as XLSX.CellObject).v === 'string') {
        assert.equal((cell as XLSX.CellObject).t, 's')
      }
    }
    const injected = Object.values(sheet).filter(
      (c) =>
        typeof c === 'object' && c && 'v' in c && /^[=+@-]/.test(String((c as XLSX.CellObject).v))
    )
    assert.ok(injected.length >= 3)
    assert.equal(gemaWorkbook(doc, contextFixture()).Sheets['Titelliste']!['!cols']!.length, 15)
    assert.ok(sheet['!cols'] === undefined || sheet['!cols'].length === 15)
  }
)

test(
  'GEMA: without live mode the planned setlist counts; a gig without setlist ' +
    'or times still exports',
  () => {
    const planned = gemaWorkbook(bigGig(2, 5), contextFixture())
    const rows = XLSX.utils.sheet_to_json<string[]>(planned.Sheets['Titelliste']!, {
      header: 1,
      defval: ''
    })
    assert.equal(rows.length - rows.findIndex((r) => r[0] === 'Werknummer') - 1, 10)
    const empty = assembleGigDocument(
      {
        gig: gigFixture({
          startTime: null,
          endTime: null,
          venueName: null,
          venueAddress: null,
          venueCity: null,
          organizerName: null,
          organizerContact: null
        }),
        sets: [],
        entries: [],
        schedule: [],
        musicianCount: 0
      },
      TIMING
    )
    const book = XLSX.read(renderGemaXlsx(empty, contextFixture()), { type: 'buffer' })
    const emptyRows = XLSX.utils.sheet_to_json<string[]>(book.Sheets['Titelliste']!, {
      header: 1,
      defval: ''
    })
    assert.equal(emptyRows.at(-1)![0], 'Werknummer')
    assert.equal(emptyRows.find((r) => r[0] === 'Beginn')![1], '20:00')
  }
)

test('person names: "Last, First", else the last word is the surname', () => {
  assert.deepEqual(splitPersonName('Lennon, John'), { last: 'Lennon', first: 'John' })
  assert.deepEqual(splitPersonName('Ludwig van Beethoven'), {
    last: 'Beethoven',
    first: 'Ludwig van'
  })
  assert.deepEqual(splitPersonName('Madonna'), { last: 'Madonna', first: '' })
})
