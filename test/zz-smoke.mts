import { writeFileSync } from 'node:fs'
import { renderSchedulePdf } from '../src/services/schedule-pdf.js'
import { encodePng } from '../src/services/png-decode.js'
import { bigGig, contextFixture } from './document-fixtures.js'
const doc = bigGig(3, 10)
doc.schedule.push({ id: 1, at: '2026-06-13T18:00', title: 'Abendessen Band', who: 'Alle', where: 'Küche', notes: 'vegetarisch: 2' }, { id: 2, at: '2026-06-13T23:30', title: 'Torte', who: 'Brautpaar', where: 'Saal', notes: null })
const w = 64, h = 64, px = new Uint8Array(w * h * 4)
for (let i = 0; i < w * h; i++) { const x = i % w; px.set(x < 32 ? [230, 120, 20, 255] : [250, 250, 250, 255], i * 4) }
const logo = { mimeType: 'image/png', data: encodePng({ width: w, height: h, pixels: px }) }
let t = performance.now()
writeFileSync('/tmp/sched.pdf', await renderSchedulePdf(doc, contextFixture({ logo })))
console.log(performance.now() - t)
