import { writeFileSync } from 'node:fs'
import { renderSetlistPdf } from '../src/services/setlist-pdf.js'
import { bigGig, contextFixture } from './document-fixtures.js'
const doc = bigGig()
const e = doc.sets[0]!.entries
e[1]!.status = 'skipped'; e[2]!.inserted = true; e[2]!.status = 'played'; e[2]!.rating = 3; e[0]!.status = 'played'; e[0]!.rating = 1
doc.liveUsed = true
writeFileSync('/tmp/print.pdf', await renderSetlistPdf(doc, contextFixture()))
writeFileSync('/tmp/stage.pdf', await renderSetlistPdf(doc, contextFixture(), 'stage'))
