export default {
  title: 'Ablaufplan: {name}',
  help:
    'Eure eigenen Punkte mit Zeit, Titel, wer, wo und Notizen. Die Zeiten des Gigs und die Sets ' +
    'stehen an ihrem Platz; geändert werden sie im Gig und in der Setlist.',
  'source.gig': 'aus dem Gig',
  'source.set': 'Set',
  'source.item': 'Punkt',
  newItem: 'Neuer Punkt',
  time: 'Zeit',
  date: 'Tag',
  itemTitle: 'Titel',
  who: 'Wer',
  where: 'Wo',
  notes: 'Notizen',
  remove: '„{title}“ entfernen',
  add: 'Punkt hinzufügen',
  save: 'Ablaufplan speichern',
  saved: 'Ablaufplan gespeichert',
  leaveTitle: 'Ohne Speichern verlassen?',
  leaveText: 'Deine Änderungen am Ablaufplan sind noch nicht gespeichert.'
}
