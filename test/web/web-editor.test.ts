import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { ApiSession, dayFromNow } from '#test/browser/api-client.js'
import { startBand } from '#test/browser/band-fixture.js'
import { openAppInEnglish } from '#test/browser/english.js'
import {
  checkA11y,
  DESKTOP,
  launchBrowser,
  logInAs,
  PHONE,
  screenshot,
  WAIT
} from '#test/browser/harness.js'

interface SongRow {
  id: number
  title: string
}

// An editor's week away from the setlist, in a real browser, every effect checked through the
// API: songs with every field and the GEMA data, proposals decided with the votes in view, a song
// in use retired instead of deleted, the song's stage statistics and rehearsal history; the season
// statistics with the season's setlists as JSON. A member sees none of the editor's controls and a
// "not allowed" page on their addresses. Rehearsals and surveys: web-editor-plans.test.ts.
test('web app: an editor runs songs; the season in numbers', {
  timeout: 900_000
}, async (t) => {
  const band = await startBand()
  const browser = await launchBrowser()
  t.after(async () => {
    await browser.close()
    await band.stop()
  })
  const { base, editor } = band

  // History for the statistics: the past gig played two songs, a past rehearsal worked on one.
  const songs: SongRow[] = await editor.get('/songs')
  const songId = (title: string) => songs.find((song) => song.title === title)!.id
  const chicago = songId('Sweet Home Chicago')
  const pastDate = dayFromNow(-20)
  await editor.ok('PUT', `/gigs/${band.pastGig.id}/setlist`, {
    version: 0,
    sets: [{ name: 'Set 1', entries: [{ songId: chicago }, { songId: songId('Proud Mary') }] }]
  })
  await editor.ok('POST', '/rehearsals', {
    date: dayFromNow(-27),
    startTime: '19:00',
    location: 'Proberaum Nord',
    songs: [{ songId: chicago, notes: 'Tighter ending' }]
  })
  const mia = await ApiSession.login(base, band.member.username, band.member.password)
  await mia.ok('PUT', `/songs/${band.proposal.id}/vote`, { vote: 'yes' })
  const config = await editor.get('/public/app_config')

  const lena = await openAppInEnglish(browser, base, DESKTOP)
  const { page } = lena
  await logInAs(page, base, 'lena', 'our singer leads the band since 2019')
  let newSongId = 0
  const nav = (name: string) =>
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).click()

  await t.test('a new song with every field, the server’s message by its field', async () => {
    await nav('Songs')
    await page.getByRole('link', { name: 'New song' }).click()
    await page.getByRole('heading', { level: 1, name: 'New song' }).waitFor()
    const form = page.getByRole('form', { name: 'Song' })
    await form.getByLabel('Title').fill('Hit the Road Jack')
    await form.getByLabel('Artist').fill('Ray Charles')
    await form.getByLabel('Genre').selectOption(config.genres[0])
    await form.getByLabel('Key').selectOption(config.keys[3])
    await form.getByLabel('Duration').fill('2:05')
    await form.getByLabel('Tempo (BPM)').fill('172')
    // The picker offers the band's singers (GET /singers).
    await form.getByLabel('Lead singer', { exact: true }).selectOption('Lena')
    await form.getByLabel('Backing vocals').fill('Mia, Lena')
    await form.getByLabel('Status').selectOption('rehearsing')
    await form.getByLabel('Composers').fill('Mayfield, Percy\nCharles, Ray')
    await form.getByLabel('Lyricists').fill('Mayfield, Percy')
    await form.getByLabel('Arrangers').fill('Horn, Brass')
    await form.getByLabel('Publisher').fill('Tangerine Music')
    await form.getByLabel('GEMA work number').fill('1234567-001')
    await form.getByLabel('ISWC').fill('T-12')
    await form
      .getByLabel('Links')
      .fill('https://example.org/hit-the-road-jack\nhttps://example.org/charts/jack.pdf')
    await form.getByLabel('Notes').fill('Call and response with the audience.')
    lena.allowHttpError('/songs', 400)
    await form.getByRole('button', { name: 'Add song' }).click()
    const iswc = form.getByLabel('ISWC')
    await form
      .locator('.field', { has: page.getByLabel('ISWC') })
      .locator('.field-error')
      .filter({ hasText: 'Not in the expected format.' })
      .waitFor()
    assert.equal(await iswc.getAttribute('aria-invalid'), 'true')
    assert.equal(await form.getByLabel('Title').inputValue(), 'Hit the Road Jack', 'input kept')
    await checkA11y(page, 'new song with an error')
    await screenshot(page, 'song-new-desktop')
    await page.setViewportSize(PHONE)
    await screenshot(page, 'song-new-phone')
    await page.setViewportSize(DESKTOP)
    await iswc.fill('T-034.524.680-1')
    await form.getByRole('button', { name: 'Add song' }).click()
    await page.getByRole('heading', { level: 1, name: 'Hit the Road Jack' }).waitFor()
    newSongId = Number(new URL(page.url()).pathname.split('/').pop())
    const song = await editor.get(`/songs/${newSongId}`)
    assert.deepEqual(
      {
        artist: song.artist,
        genre: song.genre,
        key: song.key,
        durationSeconds: song.durationSeconds,
        tempoBpm: song.tempoBpm,
        leadSinger: song.leadSinger,
        backingVocals: song.backingVocals,
        status: song.status,
        composers: song.composers,
        lyricists: song.lyricists,
        arrangers: song.arrangers,
        publisher: song.publisher,
        gemaWorkNumber: song.gemaWorkNumber,
        iswc: song.iswc,
        links: song.links,
        notes: song.notes
      },
      {
        artist: 'Ray Charles',
        genre: config.genres[0],
        key: config.keys[3],
        durationSeconds: 125,
        tempoBpm: 172,
        leadSinger: 'Lena',
        backingVocals: 'Mia, Lena',
        status: 'rehearsing',
        composers: ['Mayfield, Percy', 'Charles, Ray'],
        lyricists: ['Mayfield, Percy'],
        arrangers: ['Horn, Brass'],
        publisher: 'Tangerine Music',
        gemaWorkNumber: '1234567-001',
        iswc: 'T-034.524.680-1',
        links: ['https://example.org/hit-the-road-jack', 'https://example.org/charts/jack.pdf'],
        notes: 'Call and response with the audience.'
      }
    )
    await page.getByText('Charles, Ray').waitFor()
  })

  await t.test('editing: a guest lead singer, a third composer, a field cleared', async () => {
    await page.getByRole('link', { name: 'Edit song' }).click()
    const form = page.getByRole('form', { name: 'Song' })
    assert.equal(await form.getByLabel('Composers').inputValue(), 'Mayfield, Percy\nCharles, Ray')
    await form.getByLabel('Lead singer', { exact: true }).selectOption({ label: 'Someone else…' })
    await form.getByLabel('Name of the lead singer').fill('Guest: Tom')
    await form.getByLabel('Composers').fill('Mayfield, Percy\nCharles, Ray\nDoe, Jane')
    await form.getByLabel('Publisher').fill('')
    await form.getByLabel('Our own song').check()
    await form.getByRole('button', { name: 'Save' }).click()
    // Exact: the edit page's own heading, "Edit “Hit the Road Jack”", contains the title (a CI run
    // under load read the song back before the save had reached the server).
    await page.getByRole('heading', { level: 1, name: 'Hit the Road Jack', exact: true }).waitFor()
    const song = await editor.get(`/songs/${newSongId}`)
    assert.equal(song.leadSinger, 'Guest: Tom')
    assert.deepEqual(song.composers, ['Mayfield, Percy', 'Charles, Ray', 'Doe, Jane'])
    assert.equal(song.publisher, null)
    assert.equal(song.isOriginal, true)
    // The picker now offers the guest too (GET /singers lists every lead singer of a song).
    await page.getByRole('link', { name: 'Edit song' }).click()
    const picker = form.getByLabel('Lead singer', { exact: true })
    await picker.locator('option', { hasText: 'Guest: Tom' }).waitFor({ state: 'attached' })
    assert.equal(await picker.inputValue(), 'Guest: Tom')
    await checkA11y(page, 'song form')
    await page.getByRole('link', { name: 'Back to the song' }).click()
    await page.getByRole('heading', { level: 1, name: 'Hit the Road Jack', exact: true }).waitFor()
  })

  await t.test('proposals: accepted and retired with the votes in view', async () => {
    await page.goto(`${base}/app/songs/${band.proposal.id}`)
    await page.getByRole('heading', { level: 1, name: 'Valerie' }).waitFor()
    const card = page.getByRole('region', { name: 'Your vote' })
    await card.getByText('1 yes · 0 no · 0 abstained').waitFor()
    await card.getByText('Mia: Yes').waitFor()
    await checkA11y(page, 'proposal with the decision')
    await screenshot(page, 'song-proposal-desktop')
    await card.getByRole('button', { name: 'Accept into the repertoire' }).click()
    await page
      .getByRole('status')
      .filter({ hasText: 'The song is in the repertoire now' })
      .waitFor()
    assert.equal((await editor.get(`/songs/${band.proposal.id}`)).status, 'accepted')
    await page.getByText('Accepted', { exact: true }).waitFor()

    const other = await mia.ok('POST', '/songs', { title: 'Rolling in the Deep' })
    await page.goto(`${base}/app/songs/${other.id}`)
    await page
      .getByRole('region', { name: 'Your vote' })
      .getByRole('button', { name: 'Retire the proposal' })
      .click()
    await page.getByRole('status').filter({ hasText: 'The song is retired' }).waitFor()
    assert.equal((await editor.get(`/songs/${other.id}`)).status, 'retired')
  })

  await t.test('a song page: its gigs, statistics and rehearsal history', async () => {
    await page.goto(`${base}/app/songs/${chicago}`)
    const stage = page.getByRole('region', { name: 'On stage' })
    await stage.getByRole('link', { name: band.pastGig.name }).waitFor()
    await stage.getByRole('link', { name: 'Proud Mary' }).waitFor()
    const rehearsals = page.getByRole('region', { name: 'Rehearsals' })
    await rehearsals.getByText('Tighter ending').waitFor()
    await rehearsals.getByText(/Rehearsed once so far/).waitFor()
    const stats = await editor.get(`/songs/${chicago}/stats`)
    assert.equal(stats.played, 1)
    assert.equal(
      await stage.locator('dt', { hasText: 'Played' }).locator('+ dd').innerText(),
      String(stats.played)
    )
    await checkA11y(page, 'song with statistics')
    await screenshot(page, 'song-detail-desktop')
  })

  await t.test('a song in use is retired, and the screen says so; an unused one goes', async () => {
    await page.getByRole('button', { name: 'Delete song' }).click()
    await page.getByText('Delete this song for good?').waitFor()
    await page.getByRole('button', { name: 'Yes, delete' }).click()
    await page
      .getByRole('status')
      .filter({ hasText: 'This song is in a setlist, so it was retired instead of deleted' })
      .waitFor()
    assert.equal((await editor.get(`/songs/${chicago}`)).status, 'retired')
    await page.getByText('Retired', { exact: true }).waitFor()

    await page.goto(`${base}/app/songs/${newSongId}`)
    await page.getByRole('button', { name: 'Delete song' }).click()
    await page.getByRole('button', { name: 'Yes, delete' }).click()
    await page.waitForURL(/\/app\/songs$/)
    assert.equal((await editor.request('GET', `/songs/${newSongId}`)).status, 404)
    lena.assertClean()
  })

  await t.test('the season in numbers, its setlists as one JSON file', async () => {
    await nav('Dashboard')
    await page.getByRole('link', { name: 'Season statistics' }).click()
    await page.getByRole('heading', { level: 1, name: 'Season statistics' }).waitFor()
    const year = Number(pastDate.slice(0, 4))
    await page.getByLabel('Season', { exact: true }).selectOption(String(year))
    await page.getByRole('heading', { level: 2, name: `Season ${year}` }).waitFor()
    const stats = await editor.get(`/stats?season=${year}`)
    assert.equal(stats.gigsPlayed, 1)
    const number = (label: string) =>
      page.locator('.numbers div', { hasText: label }).locator('dd').innerText()
    assert.equal(await number('Gigs played'), String(stats.gigsPlayed))
    assert.equal(await number('Songs played'), String(stats.songsPlayed))
    const top = page.getByRole('region', { name: 'Played most' })
    await top.getByRole('link', { name: 'Sweet Home Chicago' }).waitFor()
    await checkA11y(page, 'season statistics')
    await screenshot(page, 'stats-desktop')

    const download = page.waitForEvent('download', { timeout: WAIT })
    await page.getByRole('link', { name: `Setlists ${year} (JSON)` }).click()
    const file = await download
    assert.equal(file.suggestedFilename(), `Setlists-${year}.json`)
    const data = JSON.parse(readFileSync((await file.path())!, 'utf8'))
    assert.equal(data.format, 'bandstand-season-setlists')
    const played = data.gigs.find(
      (entry: { gig: { name: string } }) => entry.gig.name === band.pastGig.name
    )
    assert.deepEqual(
      played.setlist.sets[0].entries.map((entry: { song: { title: string } }) => entry.song.title),
      ['Sweet Home Chicago', 'Proud Mary']
    )

    await page.getByLabel('Season', { exact: true }).selectOption('all')
    await page.getByRole('heading', { level: 2, name: 'All time' }).waitFor()
    assert.equal(await page.getByRole('link', { name: /\(JSON\)$/ }).count(), 0)
    await page.setViewportSize(PHONE)
    await screenshot(page, 'stats-phone')
    await page.setViewportSize(DESKTOP)
    // In German, as the band's default.
    await page.getByRole('combobox', { name: 'Language' }).selectOption('de')
    await page.getByRole('heading', { level: 1, name: 'Saisonstatistik' }).waitFor()
    await page.getByRole('heading', { level: 2, name: 'Gesamte Zeit' }).waitFor()
    await page.getByText('Am häufigsten gespielt').waitFor()
    await page.goto(`${base}/app/songs/new`)
    await page.getByRole('heading', { level: 1, name: 'Neuer Song' }).waitFor()
    await page.getByRole('group', { name: 'GEMA-Angaben' }).getByLabel('Komponisten').waitFor()
    await screenshot(page, 'song-new-desktop-de')
    await page.getByRole('combobox', { name: 'Sprache' }).selectOption('en')
    await page.getByRole('heading', { level: 1, name: 'New song' }).waitFor()
    lena.assertClean()
  })

  await t.test('a member sees none of it: no controls, "not allowed" by address', async () => {
    const member = await openAppInEnglish(browser, base, PHONE)
    const { page: phone } = member
    await logInAs(phone, base, band.member.username, band.member.password)
    await phone.goto(`${base}/app/songs/${songId('Mustang Sally')}`)
    await phone.getByRole('heading', { level: 1, name: 'Mustang Sally' }).waitFor()
    await phone.getByRole('region', { name: 'Rehearsals' }).waitFor()
    assert.equal(await phone.getByRole('link', { name: 'Edit song' }).count(), 0)
    assert.equal(await phone.getByRole('button', { name: 'Delete song' }).count(), 0)
    await screenshot(phone, 'song-detail-member-phone')
    await phone.goto(`${base}/app/songs`)
    await phone.getByRole('button', { name: 'Propose a song' }).waitFor()
    assert.equal(await phone.getByRole('link', { name: 'New song' }).count(), 0)
    await phone.goto(`${base}/app/rehearsals/${band.rehearsal.id}`)
    await phone.getByRole('heading', { level: 1, name: /Rehearsal on/ }).waitFor()
    assert.equal(await phone.getByRole('link', { name: 'Edit rehearsal' }).count(), 0)
    for (const path of ['/songs/new', `/songs/${chicago}/edit`, '/rehearsals/new']) {
      await phone.goto(`${base}/app${path}`)
      await phone.getByRole('heading', { level: 1, name: 'Not allowed' }).waitFor()
      assert.equal(await phone.getByRole('form').count(), 0, `${path}: no form`)
    }
    await phone.goto(`${base}/app/surveys/${band.survey.id}`)
    await phone.getByRole('heading', { level: 1, name: band.survey.title }).waitFor()
    assert.equal(await phone.getByRole('button', { name: 'Close survey' }).count(), 0)
    member.assertClean()
    await member.context.close()
  })
})
