export default {
  label: 'Main',
  skip: 'Skip to content',
  dashboard: 'Dashboard',
  gigs: 'Gigs',
  songs: 'Songs',
  rehearsals: 'Rehearsals',
  surveys: 'Surveys',
  me: 'Me',
  admin: 'Admin',
  logout: 'Log out',
  language: 'Language',
  'language.en': 'English',
  'language.de': 'Deutsch'
}
