import { Type, type Static } from '@sinclair/typebox'
import { StringEnum } from './common.js'
import { ICON_FILES } from '#src/documents/app-icons.js'

/** The web app manifest (W3C Web Application Manifest): the fields Bandstand sets. */
export const WebAppManifest = Type.Object({
  id: Type.String({ description: 'the app\'s identity: its start URL' }),
  name: Type.String({ description: 'the band\'s name (app configuration `bandName`)' }),
  short_name: Type.String({ description: 'at most 12 characters, for the home screen' }),
  description: Type.String(),
  lang: Type.String(),
  start_url: Type.Literal('/app/'),
  scope: Type.Literal('/app/'),
  display: Type.Literal('standalone'),
  theme_color: Type.String(),
  background_color: Type.String(),
  icons: Type.Array(
    Type.Object({
      src: Type.String(),
      sizes: Type.String({ examples: ['192x192'] }),
      type: Type.Literal('image/png'),
      purpose: StringEnum(['any', 'maskable'] as const)
    })
  )
})
export type WebAppManifestType = Static<typeof WebAppManifest>

export const IconParams = Type.Object({ file: StringEnum(ICON_FILES) })
