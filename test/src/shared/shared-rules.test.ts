import { test } from 'node:test'
import assert from 'node:assert/strict'
import { pathToFileURL } from 'node:url'
import { ROLES, ROLES_RISING, roleAtLeast, type Role } from '#shared/enums.js'
import { GIG_LIMITS, SONG_LIMITS } from '#shared/limits.js'
import { GigCreate } from '#schemas/gigs.js'
import { SongCreate } from '#schemas/songs.js'
import { projectPath } from '#src/project-path.js'

// The web app's lists, imported by URL (its folder is the web app's, not the server's).
const web = async <T>(path: string) =>
  (await import(pathToFileURL(projectPath('web', 'src', path)).href)) as T

test('roles rise member < editor < admin; a role has the rights of those below it', () => {
  assert.deepEqual(ROLES_RISING, ['member', 'editor', 'admin'])
  const expected: Record<Role, Role[]> = {
    member: ['member'],
    editor: ['member', 'editor'],
    admin: ['member', 'editor', 'admin']
  }
  for (const role of ROLES) {
    assert.deepEqual(ROLES.filter((needed) => roleAtLeast(role, needed)).sort(),
      [...expected[role]].sort(), role)
  }
})

test('the web app offers the shared lists in its order, every value once', async () => {
  const { ROLES: offered } = await web<{ ROLES: Role[] }>('routes/admin/users/roles.ts')
  assert.deepEqual(offered, ['member', 'editor', 'admin'])
  const { SONG_STATUSES } = await web<{ SONG_STATUSES: string[] }>('routes/songs/statuses.ts')
  assert.deepEqual(SONG_STATUSES, ['accepted', 'rehearsing', 'ready', 'proposed', 'retired'])
})

test('the field limits are the request schemas\' maxLength', () => {
  const gig = GigCreate.properties
  assert.equal(gig.name.maxLength, GIG_LIMITS.name)
  assert.equal(gig.notes.maxLength, GIG_LIMITS.notes)
  assert.equal(gig.venue.properties.address.maxLength, GIG_LIMITS.venueAddress)
  assert.equal(gig.organizer.properties.contact.maxLength, GIG_LIMITS.organizerContact)
  const song = SongCreate.properties
  assert.equal(song.title.maxLength, SONG_LIMITS.title)
  assert.equal(song.leadSinger.maxLength, SONG_LIMITS.leadSinger)
  assert.equal(song.gemaWorkNumber.maxLength, SONG_LIMITS.gemaWorkNumber)
})
