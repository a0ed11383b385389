import { readFileSync } from 'node:fs'
import { projectPath } from './project-path.js'

export const APP_VERSION: string = (
  JSON.parse(readFileSync(projectPath('package.json'), 'utf8')) as { version: string }
).version
