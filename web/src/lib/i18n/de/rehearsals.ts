export default {
  itemTitle: 'Probe',
  title: 'Proben',
  which: 'Welche Proben',
  upcoming: 'Kommende',
  past: 'Vergangene',
  noUpcoming: 'Noch keine Proben geplant.',
  noPast: 'Keine vergangenen Proben.',
  songCount: { one: '1 Song', other: '{count} Songs' },
  back: 'Alle Proben',
  detailTitle: 'Probe am {date}',
  songs: 'Woran wir arbeiten',
  noSongs: 'Für diese Probe sind keine Songs geplant.',
  done: 'Erledigt',
  notes: 'Notizen'
}
