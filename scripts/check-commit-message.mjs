// The commit message's form (CONTRIBUTING.md): a subject of at most 72 characters, then a blank
// line, then the story (what, why, the measurements) in the body. Run by .githooks/commit-msg with
// the message file; prints what is wrong and exits 1. Git's own subjects (merges, reverts,
// fixup!/squash!/amend! for an autosquash) pass as they are.
import { readFileSync } from 'node:fs'

export const SUBJECT_MAX = 72

/** What is wrong with a commit message as git hands it to the hook (comments still in it). */
export function messageProblems (message) {
  const scissors = message.search(/^# -+ >8 -+$/m)
  const lines = (scissors < 0 ? message : message.slice(0, scissors)).split('\n')
    .filter((line) => !line.startsWith('#'))
  while (lines.length > 0 && lines[0].trim() === '') lines.shift()
  const [subject = '', second = ''] = lines
  if (subject.trim() === '') return ['the message is empty']
  if (/^(Merge |Revert "|(fixup|squash|amend)! )/.test(subject)) return []
  const problems = []
  const length = [...subject].length
  if (length > SUBJECT_MAX) {
    problems.push(`the subject has ${length} characters, at most ${SUBJECT_MAX}: say what the ` +
      'change does in the subject and tell its story in the body')
  }
  if (second.trim() !== '') problems.push('a blank line goes between the subject and the body')
  return problems
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const problems = messageProblems(readFileSync(process.argv[2], 'utf8'))
  for (const problem of problems) console.error(`commit message: ${problem}`)
  if (problems.length > 0) {
    console.error('(CONTRIBUTING.md; git commit --no-verify skips this check)')
    process.exit(1)
  }
}
