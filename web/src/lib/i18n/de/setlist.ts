export default {
  title: 'Setlist: {name}',
  backToGig: 'Zurück zum Gig',
  addSongs: 'Songs hinzufügen',
  findSong: 'Song suchen',
  addTo: 'Hinzufügen zu',
  lastSet: 'Letztes Set',
  add: 'Hinzufügen',
  foundCount: {
    zero: 'Kein Song gefunden.',
    one: '1 Song gefunden',
    other: '{count} Songs gefunden'
  },
  allSongs: { zero: 'Noch keine Songs.', one: '1 Song', other: '{count} Songs' },
  moreFound: {
    one: '1 weiterer: tippe mehr vom Titel.',
    other: '{count} weitere: tippe mehr vom Titel.'
  },
  inSet: 'In {set}',
  newSong: 'Neuer Song „{title}“',
  newSongHint: 'Legt den Song nur mit Titel an (Details später) und fügt ihn hinzu.',
  newSongCreated: 'Song „{title}“ angelegt',
  textEntry: 'Freier Eintrag',
  textEntryLabel: 'Titel eines freien Eintrags',
  textEntryHint: 'Eine Rede, der Eröffnungstanz, eine Medley-Ansage: kein Song, keine Noten.',
  addText: 'Eintrag hinzufügen',
  textTitle: 'Titel',
  freeText: 'Freier Eintrag',
  alreadyIn: '„{title}“ steht schon in {set}; noch einmal hinzugefügt.',
  textLengthHint: 'Minuten oder m:ss; leer = dauert nichts.',
  help:
    'Zieh einen Song am Griff (Maus oder Finger), oder setz den Fokus auf den Griff und nimm die ' +
    'Pfeiltasten hoch und runter; der ▾-Knopf hat Notizen, Länge, „in Set verschieben“ und ' +
    'Entfernen.',
  addSet: 'Set hinzufügen',
  noSets:
    'Noch keine Sets: füg ein Set hinzu, oder füg einen Song hinzu, dann entsteht das erste Set.',
  defaultSetName: 'Set {n}',
  unnamedSet: 'Set ohne Namen',
  setNameLabel: 'Name des Sets',
  breakLabel: 'Pause danach',
  durationHint: 'Minuten oder m:ss; leer = Standard der Band.',
  removeSet: '{set} entfernen',
  removeSetTitle: '{set} entfernen?',
  removeSetText: {
    one: 'Sein Song geht mit (nur hier: gespeichert wird erst mit „Setlist speichern“).',
    other:
      'Seine {count} Songs gehen mit (nur hier: gespeichert wird erst mit „Setlist speichern“).'
  },
  removeSetConfirm: 'Set entfernen',
  setAdded: '{set} hinzugefügt',
  setRemoved: '{set} entfernt',
  emptySet: 'Noch keine Songs in diesem Set: füg welche hinzu oder zieh sie hierher.',
  moveHandle: '{title} verschieben',
  details: 'Details zu {title}',
  notes: 'Notizen',
  length: 'Länge',
  lengthHint: 'm:ss; leer = Länge des Songs.',
  invalidDuration: 'Eine Länge zwischen 0:01 und 120:00, als m:ss.',
  invalidBreak: 'Eine Pause zwischen 0:00 und 120:00, als m:ss.',
  gigKey: 'Tonart für diesen Auftritt',
  gigKeyHint: 'Die Tonart, in der er klingt: Charts und Setlisten ziehen mit.',
  keyAsWritten: 'Wie notiert',
  capo: 'Kapo',
  noCapo: 'Kein Kapo',
  moveUp: 'Nach oben',
  moveDown: 'Nach unten',
  moveToSet: '{title} in ein anderes Set verschieben',
  moveToSetOption: 'In Set verschieben …',
  remove: '{title} entfernen',
  removed: '{title} aus {set} entfernt',
  added: '{title} zu {set} hinzugefügt, Position {position}',
  movedTo: '{title}: {set}, Position {position} von {count}',
  atStart: '{title} ist schon der erste Song.',
  atEnd: '{title} ist schon der letzte Song.',
  'status.played': 'gespielt',
  'status.skipped': 'ausgelassen',
  breakLine: 'Pause {duration}',
  total: 'Gesamt {duration}',
  unsaved: 'Ungespeicherte Änderungen',
  allSaved: 'Alles gespeichert',
  save: 'Setlist speichern',
  saved: 'Setlist gespeichert',
  restored:
    'Deine ungespeicherten Änderungen von vor der Anmeldung sind wieder da. Prüf sie und ' +
    'speichere.',
  conflictTitle: 'Jemand anderes hat diese Setlist inzwischen gespeichert',
  conflictText:
    'Deine Änderungen sind noch nicht gespeichert, und nichts ist verloren. Das hat sich auf dem ' +
    'Server geändert:',
  conflictNoChanges:
    'Nur die Version hat sich geändert (z. B. wurde im Live-Modus ein Song gespielt).',
  keepMine: 'Meine Änderungen obendrauf behalten',
  takeTheirs: 'Deren Version laden (meine verwerfen)',
  reloaded: 'Die aktuelle Version ist geladen.',
  rebased: 'Deine Änderungen liegen jetzt auf der aktuellen Version. Prüf sie und speichere.',
  rebasedSkipped: {
    one:
      'Deine Änderungen liegen auf der aktuellen Version; 1 Änderung passte nicht mehr. Prüfen ' +
      'und speichern.',
    other:
      'Deine Änderungen liegen auf der aktuellen Version; {count} Änderungen passten nicht mehr. ' +
      'Prüfen und speichern.'
  },
  'change.setAdded': 'Set „{set}“ hinzugefügt',
  'change.setRemoved': 'Set „{set}“ entfernt',
  'change.setRenamed': 'Set „{from}“ umbenannt in „{set}“',
  'change.breakChanged': 'Pause nach „{set}“ geändert',
  'change.added': '„{title}“ zu {set} hinzugefügt',
  'change.removed': '„{title}“ aus {set} entfernt',
  'change.movedTo': '„{title}“ von {from} nach {set} verschoben',
  'change.reordered': '„{title}“ innerhalb von {set} verschoben',
  'change.changed': '„{title}“ in {set}: Notizen oder Länge geändert',
  leaveTitle: 'Ohne Speichern verlassen?',
  leaveText: 'Deine Änderungen an dieser Setlist sind noch nicht gespeichert.',
  leave: 'Ohne Speichern verlassen',
  stay: 'Hierbleiben'
}
