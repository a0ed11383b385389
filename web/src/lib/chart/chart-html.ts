import type { Chart, ChartLine } from '$shared/chords/chordpro'

// A chart as one HTML string, set at once: a 300-line chart is ~5,000 elements, and the browser
// parses them natively far faster than a framework creates and diffs them node by node. Every
// text is escaped; the markup is fixed here.

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;'
}
const esc = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!)

// Lines in blocks: the browser lays out only the blocks on screen (content-visibility: auto).
const BLOCK = 12

function line (l: ChartLine, chords: boolean): string {
  switch (l.kind) {
    case 'lyrics': {
      if (!chords || !l.pairs.some((p) => p.chord !== null)) {
        return `<p class="line text">${esc(l.pairs.map((p) => p.text).join('')) || ' '}</p>`
      }
      const pairs = l.pairs.map((p) =>
        `<span class="pair"><span class="chord${p.annotation ? ' annotation' : ''}">` +
        `${esc(p.chord ?? '')}</span><span class="lyric">${esc(p.text) || ' '}</span></span>`)
      return `<p class="line">${pairs.join('')}</p>`
    }
    case 'comment':
      return `<p class="comment${l.italic ? ' italic' : ''}">${esc(l.text)}</p>`
    case 'tab':
      return `<pre class="tab">${esc(l.text)}</pre>`
    case 'empty':
      return '<div class="gap"></div>'
    case 'pagebreak':
      return '<hr class="pagebreak">'
  }
}

/** The chart's markup; `label` names a section kind (verse, chorus …) in the reader's language. */
export function chartHtml (chart: Chart, chords: boolean, label: (kind: string) => string):
string {
  let html = ''
  for (const section of chart.sections) {
    const name = section.label ?? (section.kind === 'plain' ? '' : label(section.kind))
    html += `<div class="section ${section.kind}${section.recall ? ' recall' : ''}">`
    if (name) html += `<p class="section-label">${esc(name)}</p>`
    for (let i = 0; i < section.lines.length; i += BLOCK) {
      html += '<div class="block">'
      for (const l of section.lines.slice(i, i + BLOCK)) html += line(l, chords)
      html += '</div>'
    }
    html += '</div>'
  }
  return html
}
