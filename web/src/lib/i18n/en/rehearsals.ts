export default {
  itemTitle: 'Rehearsal',
  title: 'Rehearsals',
  which: 'Which rehearsals',
  upcoming: 'Upcoming',
  past: 'Past',
  noUpcoming: 'No rehearsals planned yet.',
  noPast: 'No past rehearsals.',
  songCount: { one: '1 song', other: '{count} songs' },
  back: 'All rehearsals',
  detailTitle: 'Rehearsal on {date}',
  songs: 'What we work on',
  noSongs: 'No songs planned for this rehearsal.',
  done: 'Done',
  notes: 'Notes'
}
