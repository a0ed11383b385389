export default {
  updateAvailable: 'Update available',
  reload: 'Reload',
  save: 'Save for offline',
  saved: 'Saved for offline {time} · {size}',
  files: {
    one: 'Files to save: {count} · {size}',
    other: 'Files to save: {count} · {size}'
  },
  recordings: {
    one: 'Also the recording ({size}), on this device',
    other: 'Also the {count} recordings ({size}), on this device'
  },
  packTooLarge: 'Not saved: offline data may take at most {limit} MB on this device.',
  packFailed: 'Not saved: the server could not be reached.',
  needsHttps: 'Offline copy needs HTTPS — see Admin → Setup.',
  chartsTooLarge:
    'The charts are too large to save for offline use: a copy saved earlier stays, if there ' +
    'is one.'
}
