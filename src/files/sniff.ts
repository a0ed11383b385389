import { createReadStream } from 'node:fs'
import { fileTypeFromFile } from 'file-type'
import { FILE_LIMITS } from '#shared/limits.js'

/** A type Bandstand takes, as it is served. */
export interface AcceptedType {
  mimeType: string
  /** The extension a download's name gets when the uploaded name has none that fits. */
  extension: string
  /** audio: the larger size limit; the rest: documents and images. */
  audio: boolean
  /** Shown in the browser (PDF, audio, images); text is offered as a download. */
  inline: boolean
}

const audio = (mimeType: string, extension: string): AcceptedType =>
  ({ mimeType, extension, audio: true, inline: true })

/** file-type's extension → the type Bandstand stores and serves. */
const ACCEPTED: Record<string, AcceptedType> = {
  pdf: { mimeType: 'application/pdf', extension: 'pdf', audio: false, inline: true },
  jpg: { mimeType: 'image/jpeg', extension: 'jpg', audio: false, inline: true },
  png: { mimeType: 'image/png', extension: 'png', audio: false, inline: true },
  webp: { mimeType: 'image/webp', extension: 'webp', audio: false, inline: true },
  mp3: audio('audio/mpeg', 'mp3'),
  // Phones write M4A with the brand `M4A ` or a generic MP4 one: the same AAC audio.
  m4a: audio('audio/mp4', 'm4a'),
  mp4: audio('audio/mp4', 'm4a'),
  aac: audio('audio/aac', 'aac'),
  ogg: audio('audio/ogg', 'ogg'),
  oga: audio('audio/ogg', 'ogg'),
  opus: audio('audio/ogg', 'opus'),
  flac: audio('audio/flac', 'flac'),
  wav: audio('audio/wav', 'wav')
}

export const PLAIN_TEXT: AcceptedType = {
  mimeType: 'text/plain; charset=utf-8',
  extension: 'txt',
  audio: false,
  inline: false
}

/** What the 415 answer names. */
export const ALLOWED_TYPES_TEXT =
  'PDF, audio (MP3, M4A/AAC, Ogg/Opus, FLAC, WAV), images (JPEG, PNG, WebP) and plain UTF-8 text'

/** The largest file of a type. */
export const maxBytesOf = (type: AcceptedType): number =>
  type.audio ? FILE_LIMITS.audioBytes : FILE_LIMITS.documentBytes

/** The type a stored file is served as, by its MIME type (downloads). */
export function acceptedTypeOf (mimeType: string): AcceptedType {
  return Object.values(ACCEPTED).find((t) => t.mimeType === mimeType) ?? PLAIN_TEXT
}

export type Sniffed = { type: AcceptedType } | { refused: string }

/**
 * The type of a received file, from its bytes only (the name and the client's Content-Type count
 * for nothing). Text without a signature is taken when it is UTF-8 without NUL bytes and does not
 * begin with markup: HTML, SVG and XML are refused, so no stored file can ever be a page.
 */
export async function sniffFile (path: string): Promise<Sniffed> {
  const detected = await fileTypeFromFile(path)
  if (detected) {
    const type = ACCEPTED[detected.ext]
    return type ? { type } : { refused: `${detected.mime} (.${detected.ext})` }
  }
  return (await textKind(path)) ?? { type: PLAIN_TEXT }
}

/** undefined for plain text, else why it is refused. */
async function textKind (path: string): Promise<{ refused: string } | undefined> {
  const decoder = new TextDecoder('utf-8', { fatal: true })
  let start = ''
  try {
    for await (const chunk of createReadStream(path)) {
      const buffer = chunk as Buffer
      if (buffer.includes(0)) return { refused: 'binary data of an unknown type' }
      const text = decoder.decode(buffer, { stream: true })
      if (start.length < 256) start += text.slice(0, 256)
    }
    decoder.decode()
  } catch {
    return { refused: 'binary data of an unknown type (not UTF-8 text)' }
  }
  if (/^\uFEFF?\s*</.test(start)) return { refused: 'HTML, SVG or XML markup' }
  return undefined
}
