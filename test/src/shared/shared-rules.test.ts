import { test } from 'node:test'
import assert from 'node:assert/strict'
import { pathToFileURL } from 'node:url'
import { ROLES, ROLES_RISING, roleAtLeast, type Role } from '#shared/enums.js'
import {
  APP_CONFIG_LIMITS, CHECKLIST_LIMITS, GIG_LIMITS, PASSWORD_LIMITS, PROGRAMME_LIMITS,
  REHEARSAL_LIMITS, SCHEDULE_LIMITS, SETLIST_LIMITS, SONG_LIMITS, SURVEY_LIMITS, USER_LIMITS
} from '#shared/limits.js'
import { EditableAppConfig } from '#schemas/app-config.js'
import { ChecklistItemCreate } from '#schemas/checklist.js'
import { GigCreate, ScheduleItemInput } from '#schemas/gigs.js'
import { RehearsalCreate } from '#schemas/rehearsals.js'
import { RepertoireCreate } from '#schemas/repertoire.js'
import { SetlistEntryInput, SetlistSetInput } from '#schemas/setlists.js'
import { SongCreate, SongListQuery } from '#schemas/songs.js'
import { SurveyCreate, SurveyOptionInput, SurveyResponseBody } from '#schemas/surveys.js'
import { ProfileUpdate, UserCreate } from '#schemas/users.js'
import { passwordWeakness } from '#src/auth/password.js'
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
  const { ROLES: offered } = await web<{ ROLES: Role[] }>('lib/admin/roles.ts')
  assert.deepEqual(offered, ['member', 'editor', 'admin'])
  const { SONG_STATUSES } = await web<{ SONG_STATUSES: string[] }>('lib/songs/statuses.ts')
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

/** The maxLength of each named field of an object schema (nullable and optional alike). */
function maxLengths (schema: { properties: Record<string, unknown> }, names: string[]) {
  return Object.fromEntries(names.map((name) => {
    const field = schema.properties[name] as { maxLength?: number } | undefined
    return [name, field?.maxLength]
  }))
}

test('every form limit is its request schema\'s maxLength', () => {
  assert.deepEqual(maxLengths(ScheduleItemInput, ['title', 'who', 'where', 'notes']),
    { ...SCHEDULE_LIMITS })
  assert.deepEqual(maxLengths(ChecklistItemCreate, ['title', 'category', 'notes']),
    { ...CHECKLIST_LIMITS })
  assert.equal(SongCreate.properties.notes.maxLength, SONG_LIMITS.notes)
  assert.equal(SongListQuery.properties.q.maxLength, SONG_LIMITS.query)
  assert.equal(SetlistSetInput.properties.name.maxLength, SETLIST_LIMITS.setName)
  assert.equal(SetlistEntryInput.properties.title.maxLength, SETLIST_LIMITS.entryTitle)
  assert.equal(SetlistEntryInput.properties.notes.maxLength, SETLIST_LIMITS.entryNotes)
  assert.deepEqual(maxLengths(RepertoireCreate, ['name', 'notes']), { ...PROGRAMME_LIMITS })
  assert.deepEqual(maxLengths(RehearsalCreate, ['location', 'notes']), {
    location: REHEARSAL_LIMITS.location, notes: REHEARSAL_LIMITS.notes
  })
  const rehearsalSong = RehearsalCreate.properties.songs.items.properties.notes
  assert.equal(rehearsalSong.maxLength, REHEARSAL_LIMITS.songNotes)
  assert.deepEqual(maxLengths(SurveyCreate, ['title', 'description']), {
    title: SURVEY_LIMITS.title, description: SURVEY_LIMITS.description
  })
  assert.equal(SurveyOptionInput.properties.label.maxLength, SURVEY_LIMITS.optionLabel)
  const answer = SurveyResponseBody.properties.answers.items.properties.comment
  assert.equal(answer.maxLength, SURVEY_LIMITS.answerComment)
  const { email, instrument, instruments, instrumentsText, ...named } = USER_LIMITS
  assert.deepEqual(maxLengths(UserCreate, ['username', 'displayName', 'email']), {
    ...named, email
  })
  const list = UserCreate.properties.instruments
  assert.equal(list.items.maxLength, instrument)
  assert.equal(list.maxItems, instruments)
  // The forms' comma-separated field holds the longest list the schema accepts.
  assert.equal(instrumentsText, instruments * instrument + (instruments - 1) * ', '.length)
  assert.equal(ProfileUpdate.properties.displayName.maxLength, USER_LIMITS.displayName)
  assert.deepEqual(maxLengths(EditableAppConfig, ['appName', 'bandName', 'timezone']),
    { ...APP_CONFIG_LIMITS })
})

test('the ISWC limit is the longest text its pattern accepts', () => {
  const pattern = new RegExp(SongCreate.properties.iswc.pattern as string)
  const longest = 'T-034.524.680-1'
  assert.equal(longest.length, SONG_LIMITS.iswc)
  assert.match(longest, pattern)
  assert.doesNotMatch(`${longest}0`, pattern)
  assert.doesNotMatch('T-0345.524.680-1', pattern)
})

test('the password limits are the policy the server checks', () => {
  const password = (length: number) => 'Kx7!pQ2mZr9#Lw4vBn8$'.repeat(20).slice(0, length)
  assert.equal(passwordWeakness(password(PASSWORD_LIMITS.min - 1), 'u')?.reason, 'too_short')
  assert.equal(passwordWeakness(password(PASSWORD_LIMITS.min), 'u'), null)
  assert.equal(passwordWeakness(password(PASSWORD_LIMITS.max), 'u'), null)
  assert.equal(passwordWeakness(password(PASSWORD_LIMITS.max + 1), 'u')?.reason, 'too_long')
})
