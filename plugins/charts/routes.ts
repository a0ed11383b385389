import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ConvertBody, ConvertResult } from '#schemas/chart-files.js'
import { convertChordsOverLyrics } from '#shared/chords/chords-over-lyrics.js'
import chartImportRoutes from './import-routes.js'
import chartExportRoutes from './export-routes.js'

/** Charts as text: chords over lyrics made ChordPro (docs/importing.md → songbook). */
const chartRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/charts/convert',
    {
      config: { access: 'member' },
      schema: {
        tags: ['songs'],
        summary: 'Turn chords-over-lyrics text into ChordPro, with what to check',
        description:
          'A line is a chord line when every word is a chord or a bar or repeat mark; its ' +
          'chords go into the lyric line below at their columns. Headings (`[Chorus]`, ' +
          '`Verse 1:`) become sections, guitar tablature a tab section. ChordPro text comes ' +
          'back unchanged (warning `already_chordpro`). Changes nothing on the server. ' +
          '`notation` defaults to the band\'s.',
        body: ConvertBody,
        response: { 200: ConvertResult }
      }
    },
    async (request) => {
      const notation = request.body.notation ?? app.appSettings.get().chordNotation ?? 'german'
      return convertChordsOverLyrics(request.body.text, notation)
    }
  )
  await app.register(chartImportRoutes)
  await app.register(chartExportRoutes)
}
export default chartRoutes
