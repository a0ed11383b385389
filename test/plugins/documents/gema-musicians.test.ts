import { test } from 'node:test'
import assert from 'node:assert/strict'
import XLSX from 'xlsx'
import { createTestApp, createUser, userClient } from '#test/helpers.js'
import { createGig, insertSongs, putSetlist } from '#test/gig-fixtures.js'
import { gigAvailability, gigSubstitutes } from '#src/db/schema.js'

test('the GEMA report counts who plays: yes answers and named subs, else the regulars',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const editor = await userClient(ctx.app, 'eddie', 'editor')
    const mia = await createUser(ctx.app, 'mia')
    await createUser(ctx.app, 'max')
    await createUser(ctx.app, 'tina', 'member', { isMusician: false })
    await createUser(ctx.app, 'olaf', 'member', { status: 'inactive' })
    const sub = await createUser(ctx.app, 'sami', 'member', { occasional: true })
    const gig = await createGig(editor)
    await putSetlist(editor, gig.id, [insertSongs(ctx.app, 1)])
    const musicians = async () => {
      const res = await editor.get(`/gigs/${gig.id}/gema`)
      assert.equal(res.statusCode, 200)
      const rows = XLSX.utils.sheet_to_json<Array<string | number>>(
        XLSX.read(res.rawPayload, { type: 'buffer' }).Sheets['Titelliste']!,
        { header: 1, defval: '' })
      const heading = rows.findIndex((r) => r[0] === 'Werknummer')
      return rows[heading + 1]![3]
    }
    // Nobody answered: Eddie, Mia and Max; not the tech, the former member nor the sub.
    assert.equal(await musicians(), 3)

    const stamp = ctx.app.clock().toISOString()
    ctx.app.db.insert(gigAvailability).values([
      { gigId: gig.id, userId: mia.id, status: 'yes', updatedAt: stamp },
      { gigId: gig.id, userId: sub.id, status: 'yes', updatedAt: stamp }
    ]).run()
    ctx.app.db.insert(gigSubstitutes)
      .values({ gigId: gig.id, name: 'Kai', instrument: 'Drums', createdAt: stamp }).run()
    // Mia, the sub who said yes and Kai, named on the gig.
    assert.equal(await musicians(), 3)
    ctx.app.db.delete(gigAvailability).run()
    assert.equal(await musicians(), 1, 'a named sub alone is the lineup')
  })
