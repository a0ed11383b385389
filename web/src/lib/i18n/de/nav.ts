export default {
  label: 'Hauptmenü',
  skip: 'Zum Inhalt springen',
  dashboard: 'Übersicht',
  gigs: 'Gigs',
  songs: 'Songs',
  rehearsals: 'Proben',
  surveys: 'Umfragen',
  me: 'Ich',
  admin: 'Verwaltung',
  logout: 'Abmelden',
  language: 'Sprache',
  'language.en': 'English',
  'language.de': 'Deutsch'
}
