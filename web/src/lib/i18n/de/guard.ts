export default {
  title: 'Nicht erlaubt',
  'needs.member': 'Diese Seite ist für Mitglieder der Band.',
  'needs.editor':
    'Diese Seite ist für die Bearbeiter der Band (sie planen Auftritte, Songs und Proben).',
  'needs.admin': 'Diese Seite ist für die Verwaltung der Band (Benutzer und Einstellungen).',
  yourRole: 'Du bist als {role} angemeldet.',
  ask: 'Wenn du sie brauchst, bitte den Admin deiner Band, dir die Rolle zu geben.'
}
