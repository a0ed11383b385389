export default {
  title: 'Programme',
  intro:
    'Die Standardprogramme der Band: Sets mit Songs, die in die Setlist eines Gigs kopiert ' +
    'werden.',
  backToGigs: 'Zurück zu den Gigs',
  backToList: 'Alle Programme',
  empty: 'Noch keine Programme.',
  summary: {
    one: '{sets} Set(s) · 1 Song · {duration}',
    other: '{sets} Set(s) · {count} Songs · {duration}'
  },
  create: 'Neues Programm',
  name: 'Name',
  fromGig: 'Beginnen mit',
  startEmpty: 'Einem leeren Programm',
  createButton: 'Programm anlegen',
  created: 'Programm „{name}“ angelegt',
  details: 'Name und Notizen',
  saveDetails: 'Name und Notizen speichern',
  detailsSaved: 'Name und Notizen gespeichert',
  sets: 'Sets und Songs',
  elapsedHint: 'Ein Programm hat keine Anfangszeit: seine Zeiten zählen ab 0:00.',
  copyTitle: 'In einen Gig kopieren',
  gig: 'Gig',
  chooseGig: '— einen kommenden Gig wählen —',
  saveFirst: 'Speichere zuerst das Programm.',
  copyButton: 'In die Setlist des Gigs kopieren',
  deleteTitle: 'Dieses Programm löschen',
  delete: 'Programm löschen',
  deleteQuestion: 'Das Programm „{name}“ löschen?',
  deleteText: 'Daraus kopierte Setlists von Gigs bleiben, wie sie sind.',
  deleted: 'Programm „{name}“ gelöscht'
}
