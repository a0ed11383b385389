export default {
  loading: 'Wird geladen …',
  retry: 'Nochmal versuchen',
  empty: 'Hier ist noch nichts.',
  save: 'Speichern',
  saving: 'Wird gespeichert …',
  saved: 'Gespeichert',
  cancel: 'Abbrechen',
  yes: 'Ja',
  no: 'Nein',
  close: 'Schließen',
  notFound: 'Diese Seite gibt es nicht.',
  toDashboard: 'Zurück zur Übersicht',
  errorTitle: 'Etwas ist schiefgelaufen',
  minutes: { one: '{count} Min.', other: '{count} Min.' },
  today: 'Heute',
  tomorrow: 'Morgen'
}
