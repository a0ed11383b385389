import { Type } from '@sinclair/typebox'

export const CSV_TYPE = 'text/csv; charset=utf-8'
export const TEXT_TYPE = 'text/plain; charset=utf-8'

/** A text download's response schema, naming its real media type in the OpenAPI document. */
export const textFile = (mediaType: string, description: string) =>
  Type.Unsafe<string | Buffer>({
    description,
    content: { [mediaType.split(';')[0]!]: { schema: { type: 'string' } } }
  })

/** A binary download's response schema (PDF, workbook). */
export const binaryFile = (mediaType: string, description: string) =>
  Type.Unsafe<Buffer>({
    description,
    content: { [mediaType]: { schema: { type: 'string', format: 'binary' } } }
  })

export const SetlistStyleQuery = Type.Object({
  style: Type.Union([Type.Literal('print'), Type.Literal('stage')], {
    default: 'print',
    description: 'print (default): black on white; stage: dark high-contrast, larger type'
  })
})
