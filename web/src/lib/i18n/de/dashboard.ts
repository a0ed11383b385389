export default {
  title: 'Hallo, {name}',
  todo: 'Zu erledigen',
  allDone: 'Alles erledigt – gerade gibt es nichts zu beantworten.',
  answerSurvey: 'Umfrage beantworten',
  voteSong: 'Über den Vorschlag abstimmen',
  answerBelow: {
    one: 'Noch 1 Antwort unter „Demnächst“.',
    other: 'Noch {count} Antworten unter „Demnächst“.'
  },
  next: 'Demnächst',
  nothingPlanned: 'Noch keine Gigs oder Proben geplant.',
  needsAnswer: 'Bitte antworten',
  allGigs: 'Alle Gigs',
  allRehearsals: 'Alle Proben'
}
