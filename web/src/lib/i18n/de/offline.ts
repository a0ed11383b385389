export default {
  updateAvailable: 'Neue Version verfügbar',
  reload: 'Neu laden',
  save: 'Offline speichern',
  saved: 'Offline gespeichert {time} · {size}',
  files: {
    one: 'Zu speichernde Dateien: {count} · {size}',
    other: 'Zu speichernde Dateien: {count} · {size}'
  },
  recordings: {
    one: 'Auch die Aufnahme ({size}), auf diesem Gerät',
    other: 'Auch die {count} Aufnahmen ({size}), auf diesem Gerät'
  },
  packTooLarge:
    'Nicht gespeichert: Offline-Daten dürfen auf diesem Gerät höchstens {limit} MB belegen.',
  packFailed: 'Nicht gespeichert: der Server war nicht erreichbar.',
  needsHttps: 'Offline-Kopie braucht HTTPS – siehe Verwaltung → Einrichtung.',
  chartsTooLarge:
    'Die Charts sind zu groß, um sie offline zu speichern: eine früher gespeicherte Kopie ' +
    'bleibt, falls es eine gibt.'
}
