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
  'step.https': 'HTTPS for offline copies',
  'step.backups': 'Automatic backups',
  'help.https':
    'Offline copies of gigs, installing the app and keeping the screen on during a gig need ' +
    'HTTPS. Put a reverse proxy such as Caddy in front of Bandstand (docs/deployment.md → ' +
    'Reverse proxy with TLS); on the band\'s LAN with Caddy\'s own certificate, installed ' +
    'once on each phone. ' +
    'Done when you open this page over HTTPS.',
  'help.backups':
    'Set BACKUP_DIR in DATA_DIR/bandstand.env and restart: Bandstand then backs itself up daily ' +
    'and before every upgrade (docs/operations.md → Backups). Keep a copy on another machine.',
  dismiss: 'Hide this checklist',
  later: 'You find it again under Admin → Setup.',
  showAgain: 'Show on the start page again',
  onDashboard: 'Shown on the start page until you hide it there.',
  page: 'Setup'
}
