export default {
  title: 'Eure Band einrichten',
  open: { one: 'Noch 1 Schritt', other: 'Noch {count} Schritte' },
  allDone: 'Alles erledigt: eure Band ist eingerichtet.',
  done: '(erledigt)',
  'step.band': 'Bandname und Logo',
  'step.language': 'Sprache und Zeitzone',
  'step.password': 'Dein eigenes Passwort',
  'step.members': 'Mitglieder einladen',
  'step.songs': 'Songs anlegen',
  'step.gig': 'Euer erster Gig',
  dismiss: 'Checkliste ausblenden',
  later: 'Du findest sie wieder unter Verwaltung → Einrichtung.',
  showAgain: 'Wieder auf der Startseite zeigen',
  onDashboard: 'Auf der Startseite zu sehen, bis du sie dort ausblendest.',
  page: 'Einrichtung'
}
