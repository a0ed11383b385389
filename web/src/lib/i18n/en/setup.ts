export default {
  title: 'Get your band started',
  open: { one: '1 step left', other: '{count} steps left' },
  allDone: 'All done: your band is set up.',
  done: '(done)',
  'step.band': 'Band name and logo',
  'step.language': 'Language and timezone',
  'step.password': 'Your own password',
  'step.members': 'Invite members',
  'step.songs': 'Add songs',
  'step.gig': 'Your first gig',
  dismiss: 'Hide this checklist',
  later: 'You find it again under Admin → Setup.',
  showAgain: 'Show on the start page again',
  onDashboard: 'Shown on the start page until you hide it there.',
  page: 'Setup'
}
