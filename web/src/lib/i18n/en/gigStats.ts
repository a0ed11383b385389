export default {
  title: 'After the show',
  notPlayed: 'Nothing counts yet: only confirmed gigs that took place have statistics.',
  set: 'Set',
  played: 'Played',
  skipped: 'Skipped',
  inserted: 'Inserted',
  rating: 'Rating',
  total: 'Total',
  ratingHint: 'Played of planned songs; rating from ★ (ok) to ★★★ (great), as given in live mode.'
}
