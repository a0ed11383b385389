export default {
  heading: 'Push notifications',
  thisPhone: 'Push notifications on this phone',
  topics:
    'For the same news as the mails, by the choices above (Mail me off leaves push on). ' +
    'Tapping one opens the gig, rehearsal or survey.',
  turnedOn: 'Push notifications are on for this phone',
  turnedOff: 'Push notifications are off for this phone',
  'whyNot.insecure': 'Push notifications need Bandstand over https.',
  'whyNot.install':
    'On iPhone and iPad, add Bandstand to the home screen (Share → Add to Home Screen) and open ' +
    'it from there to turn on push notifications.',
  'whyNot.unsupported': 'This browser offers no push notifications.',
  'whyNot.blocked':
    "Notifications are blocked for Bandstand in this browser's settings: allow them there first.",
  'whyNot.noWorker': 'Push notifications need the installed app (its offline part is not running).'
}
