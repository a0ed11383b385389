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
  'step.https': 'HTTPS für Offline-Kopien',
  'step.backups': 'Automatische Backups',
  'help.https':
    'Offline-Kopien von Gigs, die App installieren und den Bildschirm während des Gigs anlassen ' +
    'brauchen HTTPS. Setzt einen Reverse-Proxy wie Caddy vor Bandstand (docs/deployment.md → ' +
    'Reverse proxy with TLS); im Band-LAN mit Caddys eigenem Zertifikat, einmal auf jedem ' +
    'Handy installiert. ' +
    'Erledigt, wenn du diese Seite über HTTPS öffnest.',
  'help.backups':
    'Setzt BACKUP_DIR in DATA_DIR/bandstand.env und startet neu: Bandstand sichert sich dann ' +
    'täglich und vor jedem Update (docs/operations.md → Backups). Eine Kopie gehört auf einen ' +
    'anderen Rechner.',
  dismiss: 'Checkliste ausblenden',
  later: 'Du findest sie wieder unter Verwaltung → Einrichtung.',
  showAgain: 'Wieder auf der Startseite zeigen',
  onDashboard: 'Auf der Startseite zu sehen, bis du sie dort ausblendest.',
  page: 'Einrichtung'
}
