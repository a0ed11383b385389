export default {
  title: 'Hello, {name}',
  todo: 'To do',
  allDone: 'All done — nothing to answer right now.',
  answerSurvey: 'Answer the survey',
  voteSong: 'Vote on the proposal',
  answerBelow: {
    one: '1 more answer under “Coming up”.',
    other: '{count} more answers under “Coming up”.'
  },
  next: 'Coming up',
  nothingPlanned: 'No gigs or rehearsals planned yet.',
  needsAnswer: 'Please answer',
  allGigs: 'All gigs',
  allRehearsals: 'All rehearsals'
}
