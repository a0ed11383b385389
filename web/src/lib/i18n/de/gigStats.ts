export default {
  title: 'Nach dem Auftritt',
  notPlayed: 'Noch zählt nichts: nur bestätigte Gigs, die stattgefunden haben, haben Statistiken.',
  set: 'Set',
  played: 'Gespielt',
  skipped: 'Ausgelassen',
  inserted: 'Eingefügt',
  rating: 'Bewertung',
  total: 'Gesamt',
  ratingHint:
    'Gespielte von geplanten Songs; Bewertung von ★ (ok) bis ★★★ (super), wie im Live-Modus ' +
    'vergeben.'
}
