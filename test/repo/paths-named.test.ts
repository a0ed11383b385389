// A path named in the docs or in a comment is a promise that the reader finds it there: every
// project-relative path (`src/…`, `plugins/…`, `schemas/…`, `docs/…`, `scripts/…`, `test/…`,
// `web/…`, `bench/…`) in a Markdown file or a code comment must exist, and every relative link of a
// Markdown file must lead to a file. A file moved or deleted without its mentions fails here, with
// the list of what to fix.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import { projectPath } from '#src/project-path.js'
import { repoFiles, type RepoFile } from '#test/repo-files.js'

/**
 * A path starts a word (not after `/`, `#`, `$`, `.` or a letter: URLs, package imports and other
 * repositories' paths are not ours) and stops at what no path of ours holds; a SvelteKit folder
 * such as `[id]` is part of it. Before a pattern's `<resource>`, `{id}` or `*` only the folder is
 * checked.
 */
const PATH =
  /(?<![\w./#$@~-])(?:src|plugins|schemas|docs|scripts|test|web|bench)\/(?:[\w.\-/]|\[\w+\])*(?:\w|\[\w+\])/g
const PATTERN_PART = /^[\w.-]*[*<{]/
const LINK = /\]\(([^)\s]+)\)/g
const CODE = /\.(ts|js|mjs|cjs|svelte)$/
const HASH_COMMENTS = /(\.(sh|ya?ml)|^Containerfile|^\.ci\/run)$/
// Generated from the OpenAPI document or a lockfile: their text is not written here.
const SKIP = [/^src\/db\/migrations\//, /(^|\/)package-lock\.json$/, /\.d\.ts$/, /^src\/data\//]

/** The comment text of a code file, line by line (other lines empty, so numbers stay right). */
export function commentLines (path: string, text: string): string[] {
  if (HASH_COMMENTS.test(path)) {
    return text.split('\n').map((line) => (/^\s*#/.test(line) ? line : ''))
  }
  let inBlock: '*/' | '-->' | undefined
  return text.split('\n').map((line) => {
    let comment = ''
    let rest = line
    while (rest.length > 0) {
      if (inBlock) {
        const end = rest.indexOf(inBlock)
        comment += ' ' + (end < 0 ? rest : rest.slice(0, end))
        if (end < 0) break
        rest = rest.slice(end + inBlock.length)
        inBlock = undefined
        continue
      }
      const opener = /(^|\s)(\/\/|\/\*|<!--)/.exec(rest)
      if (!opener) break
      const at = opener.index + opener[1]!.length
      if (opener[2] === '//') {
        comment += ' ' + rest.slice(at + 2)
        break
      }
      inBlock = opener[2] === '/*' ? '*/' : '-->'
      rest = rest.slice(at + opener[2]!.length)
    }
    return comment
  })
}

/** Where the path may be meant from: the project root, the web app's folder, the file's own. */
function exists (path: string, from: string): boolean {
  const bases = ['.', 'web', dirname(from)]
  const candidates = [path, path.replace(/\.js$/, '.ts'), path.replace(/\.js$/, '.svelte.ts'),
    `${path}.ts`, `${path}.test.ts`, `${path}.js`, `${path}.mjs`, `${path}.svelte`, `${path}.md`]
  return bases.some((base) => candidates.some((candidate) => existsSync(projectPath(base,
    candidate))))
}

/** The anchors of a Markdown file's headings, as GitHub makes them. */
function anchors (path: string): Set<string> {
  const headings = readFileSync(projectPath(path), 'utf8').split('\n')
    .filter((line) => /^#{1,6} /.test(line))
    .map((line) => line.replace(/^#+ /, '').trim().toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-'))
  return new Set(headings)
}

function missingIn (file: RepoFile): string[] {
  const markdown = file.path.endsWith('.md')
  const lines = markdown ? file.text.split('\n') : commentLines(file.path, file.text)
  const missing: string[] = []
  lines.forEach((line, index) => {
    const where = `${file.path}:${index + 1}`
    for (const match of line.matchAll(PATH)) {
      const after = line.slice(match.index + match[0].length)
      const path = PATTERN_PART.test(after) ? match[0].replace(/\/[^/]*$/, '') : match[0]
      if (!exists(path, file.path)) missing.push(`${where}: ${path}`)
    }
    if (!markdown) return
    // A link shown as code (`[text](url)`) is an example, not a link.
    for (const [, target] of line.replace(/`[^`]*`/g, '').matchAll(LINK)) {
      if (/^([a-z]+:|#|\/)/i.test(target!)) continue
      const [path, anchor] = target!.split('#') as [string, string | undefined]
      const relative = normalize(join(dirname(file.path), path))
      if (!existsSync(projectPath(relative))) {
        missing.push(`${where}: link ${target}`)
      } else if (anchor && relative.endsWith('.md') && !anchors(relative).has(anchor)) {
        missing.push(`${where}: link ${target} (no such heading)`)
      }
    }
  })
  return missing
}

test('every path named in a doc or a comment exists', () => {
  const missing = repoFiles()
    .filter((file) => (file.path.endsWith('.md') || CODE.test(file.path) ||
      HASH_COMMENTS.test(file.path) || file.path.endsWith('.html')) &&
      !SKIP.some((pattern) => pattern.test(file.path)))
    .flatMap(missingIn)
  assert.deepEqual(missing, [], 'name the path as it is now, or drop the mention')
})

test('comments are told from code, and paths from what only looks like one', () => {
  const lines = commentLines('x.ts', [
    "const url = 'https://example.org/src/nowhere.ts' // see src/app.ts",
    '/* one', ' * two src/server.ts */ const code = 1',
    'const path = "src/not-a-comment.ts"'
  ].join('\n'))
  assert.match(lines[0]!, /see src\/app\.ts/)
  assert.doesNotMatch(lines[0]!, /example/)
  assert.match(lines[2]!, /two src\/server\.ts/)
  assert.doesNotMatch(lines[2]!, /const code/)
  assert.equal(lines[3], '')
  const svelte = '<!-- web/src/app.html\n  docs/api.md -->\n<p>docs/x</p>'
  assert.deepEqual(commentLines('a.svelte', svelte), ['  web/src/app.html', '   docs/api.md ', ''])
  const found = (text: string) => [...text.matchAll(PATH)].map((m) => m[0])
  assert.deepEqual(found('see src/app.ts, `#src/db/client.js`, $shared/keys, ' +
    'https://github.com/fastify/demo/src/plugins, [docs/api.md](x), web/src/routes/gigs/[id]/live'),
  ['src/app.ts', 'docs/api.md', 'web/src/routes/gigs/[id]/live'])
})
