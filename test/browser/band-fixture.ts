import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer, type ServerProcess } from '#test/server-process.js'
import type { TestContext } from 'node:test'
import { ApiSession, BAND_TIMEZONE, dayFromNow } from './api-client.js'
import { launchBrowser, openApp, PHONE, type AppPage } from './harness.js'

export const ADMIN_PASSWORD = 'browser test admin password 2026'
export const MEMBER_PASSWORD = 'she plays the bass every friday'
export const EDITOR_PASSWORD = 'our singer leads the band since 2019'

export interface Band {
  server: ServerProcess
  base: string
  dataDir: string
  admin: ApiSession
  editor: ApiSession
  member: { id: number; username: string; password: string }
  gig: { id: number; name: string }
  laterGig: { id: number; name: string }
  pastGig: { id: number; name: string }
  rehearsal: { id: number; date: string }
  proposal: { id: number; title: string }
  survey: { id: number; title: string; options: { id: number; label: string }[] }
  stop: () => Promise<void>
}

/**
 * A running server with a small band made through the API: an editor (Lena) who plans, a member
 * (Mia) whom the tests play, two upcoming gigs (one with a setlist and a running order), a past
 * gig, a rehearsal, a song proposal and an open survey — all waiting for Mia's answer.
 */
export async function startBand (
  env: Record<string, string> = {},
  { setupChecklist = false }: { setupChecklist?: boolean } = {}
): Promise<Band> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bandstand-web-'))
  // A German band (its default language and zone, chosen at the first start), as the stories were
  // written for; test/web/web-first-run.test.ts starts without them.
  const server = await startServer({
    DATA_DIR: dataDir,
    ADMIN_PASSWORD,
    BAND_LOCALE: 'de-DE',
    TZ: BAND_TIMEZONE,
    ...env
  })
  const base = server.base
  const admin = await ApiSession.login(base, 'admin', ADMIN_PASSWORD)
  // The stories are about other screens than the first evening's checklist.
  if (!setupChecklist) await admin.ok('PUT', '/admin/setup', { dismissed: true })
  const mia = await admin.ok('POST', '/users', {
    username: 'mia',
    displayName: 'Mia',
    role: 'member',
    password: MEMBER_PASSWORD,
    isMusician: true,
    instruments: ['Bass']
  })
  const lena = await admin.ok('POST', '/users', {
    username: 'lena',
    displayName: 'Lena',
    role: 'editor',
    password: EDITOR_PASSWORD,
    isMusician: true,
    isSinger: true,
    instruments: ['Vocals']
  })
  // An admin-set password must be changed at first login; these two count as their own.
  for (const { id } of [mia, lena]) {
    await admin.ok('PATCH', `/users/${id}`, { passwordChangeRequired: false })
  }
  const editor = await ApiSession.login(base, 'lena', EDITOR_PASSWORD)

  const songs = []
  for (const [title, artist, durationSeconds, key] of [
    ['Sweet Home Chicago', 'Blues Brothers', 260, 'E'],
    ['Proud Mary', 'Creedence Clearwater Revival', 190, 'D'],
    ['Mustang Sally', 'Wilson Pickett', 240, 'C'],
    ['Superstition', 'Stevie Wonder', 245, 'Ebm']
  ] as const) {
    songs.push(
      await editor.ok('POST', '/songs', {
        title,
        artist,
        durationSeconds,
        key,
        status: 'ready',
        leadSinger: 'Lena'
      })
    )
  }
  const proposal = await editor.ok('POST', '/songs', {
    title: 'Valerie',
    artist: 'Amy Winehouse',
    status: 'proposed'
  })

  const gigDate = dayFromNow(3)
  const gig = await editor.ok('POST', '/gigs', {
    name: 'Summer Fest Kulturhof',
    date: gigDate,
    status: 'confirmed',
    kind: null,
    venue: { name: 'Kulturhof', address: 'Hauptstraße 5', city: 'Leipzig' },
    organizer: { name: 'Kulturverein', contact: '0341 123456' },
    getInTime: '17:00',
    soundcheckTime: '18:00',
    doorsTime: '19:30',
    startTime: '20:00',
    endTime: '00:30',
    notes: 'Parking behind the stage.'
  })
  await editor.ok('PUT', `/gigs/${gig.id}/setlist`, {
    version: 0,
    sets: [
      {
        name: 'Set 1',
        breakAfterSeconds: 900,
        entries: [{ songId: songs[0].id }, { songId: songs[1].id, notes: 'Capo 2' }]
      },
      { name: 'Set 2', entries: [{ songId: songs[2].id }, { songId: songs[3].id }] }
    ]
  })
  await editor.ok('PUT', `/gigs/${gig.id}/schedule`, {
    items: [
      { at: `${gigDate}T16:30`, title: 'Load the van', who: 'Everyone', where: 'Rehearsal room' }
    ]
  })
  const laterGig = await editor.ok('POST', '/gigs', {
    name: 'Wedding Anna & Ben',
    date: dayFromNow(12),
    status: 'inquiry',
    startTime: '19:00'
  })
  const pastGig = await editor.ok('POST', '/gigs', {
    name: 'Spring Party',
    date: dayFromNow(-20),
    status: 'confirmed',
    startTime: '21:00'
  })
  const rehearsalDate = dayFromNow(2)
  const rehearsal = await editor.ok('POST', '/rehearsals', {
    date: rehearsalDate,
    startTime: '19:00',
    location: 'Proberaum Nord',
    notes: 'New songs first.',
    songs: [{ songId: songs[3].id, notes: 'Horn section' }]
  })
  const survey = await editor.ok('POST', '/surveys', {
    title: 'Which colour for the new shirts?',
    kind: 'poll',
    options: [{ label: 'Black' }, { label: 'Dark red' }]
  })

  const band: Band = {
    server,
    base,
    dataDir,
    admin,
    editor,
    member: { id: mia.id, username: 'mia', password: MEMBER_PASSWORD },
    gig: { id: gig.id, name: gig.name },
    laterGig: { id: laterGig.id, name: laterGig.name },
    pastGig: { id: pastGig.id, name: pastGig.name },
    rehearsal: { id: rehearsal.id, date: rehearsalDate },
    proposal: { id: proposal.id, title: proposal.title },
    survey: { id: survey.id, title: survey.title, options: survey.options },
    // The server running now: a restart (live-fixture.ts) puts another in its place.
    async stop () {
      await band.server.stop()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
  return band
}

/**
 * The usual start of a browser test: the band's server, Chromium and one page at phone width;
 * all of it stopped when the test ends.
 */
export async function bandInBrowser (t: TestContext): Promise<{ band: Band; app: AppPage }> {
  const band = await startBand()
  const browser = await launchBrowser()
  t.after(async () => {
    await browser.close()
    await band.stop()
  })
  return { band, app: await openApp(browser, band.base, PHONE) }
}
