export default {
  title: 'Lineup',
  none: 'No needs stated: say what this gig needs, e.g. Drums 1, Vocals 2.',
  confirmed: '{yes} of {count} confirmed',
  noneConfirmed: 'No {instrument} confirmed',
  missing: { one: '1 missing', other: '{count} missing' },
  edit: 'Edit lineup',
  need: 'Need {n}',
  instrument: 'Instrument',
  count: 'How many',
  remove: 'Remove {instrument}',
  add: 'Add instrument',
  save: 'Save lineup',
  saved: 'Lineup saved'
}
