// The songbook's chart code, shared by the server (songbook PDF) and the web app (stage view).
export * from './chord.js'
export * from './chordpro.js'
export * from './transpose.js'
export * from './chords-over-lyrics.js'
export * from './chordpro-print.js'
export * from './directives.js'
export { plainText } from './chordpro-text.js'
