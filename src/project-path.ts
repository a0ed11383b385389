import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

// The same code runs from src/ (tsx) and from dist/src/ (built), so assets are found relative to
// the package root rather than to this file.
function findRoot (): string {
  let dir = dirname(fileURLToPath(import.meta.url))
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir)
    if (parent === dir) {
      throw new Error('package.json not found above ' + fileURLToPath(import.meta.url))
    }
    dir = parent
  }
  return dir
}

export const projectRoot = findRoot()

export function projectPath (...parts: string[]): string {
  return join(projectRoot, ...parts)
}
