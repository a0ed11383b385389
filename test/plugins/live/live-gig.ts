import { createTestApp, userClient } from '#test/helpers.js'
import { createGig, insertSongs, putSetlist } from '#test/gig-fixtures.js'

/** A gig at 20:00 with two sets of two songs (270 s each), an editor and a member. */
export async function liveGig () {
  const ctx = await createTestApp()
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const member = await userClient(ctx.app, 'mia', 'member')
  const songIds = insertSongs(ctx.app, 4, 270)
  const gig = await createGig(editor, { startTime: '20:00' })
  const setlist = await putSetlist(editor, gig.id, [
    [songIds[0]!, songIds[1]!],
    [songIds[2]!, songIds[3]!]
  ])
  const entries = setlist.sets.flatMap((s: any) => s.entries)
  return { ctx, editor, member, songIds, gig, setlist, entries }
}
