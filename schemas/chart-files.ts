import { Type, type Static } from '@sinclair/typebox'
import { LiteralUnion, Nullable, StrictObject } from './common.js'
import { ChordNotation } from './app-config.js'
import { CHART_FILE_LIMITS } from '#shared/limits.js'
import { CONVERT_WARNINGS, IMPORT_REFUSALS } from '#shared/enums.js'

export const ConvertBody = StrictObject({
  text: Type.String({ maxLength: CHART_FILE_LIMITS.convertText }),
  notation: Type.Optional(ChordNotation)
})

export const ConvertResult = Type.Object({
  chart: Type.String({ description: 'ChordPro text; the text itself when nothing was converted' }),
  warnings: Type.Array(Type.Object({
    line: Type.Integer({ description: 'the line of the text, from 1; 0: the whole text' }),
    code: LiteralUnion(CONVERT_WARNINGS),
    message: Type.String()
  }))
})

const ImportedSong = Type.Object({
  file: Type.String({ description: 'the file, with its archive: "band.zip/songs/a.cho"' }),
  songId: Type.Integer(),
  title: Type.String(),
  artist: Nullable(Type.String())
})

export const ImportReport = Type.Object({
  created: Type.Array(ImportedSong),
  updated: Type.Array(ImportedSong, {
    description: 'songs with the same title and artist whose chart was replaced'
  }),
  refused: Type.Array(Type.Object({
    file: Type.String(),
    reason: LiteralUnion(IMPORT_REFUSALS),
    message: Type.String()
  }))
})
export type ImportReportType = Static<typeof ImportReport>
