export default {
  loading: 'Loading…',
  retry: 'Try again',
  empty: 'Nothing here yet.',
  save: 'Save',
  saving: 'Saving…',
  saved: 'Saved',
  cancel: 'Cancel',
  yes: 'Yes',
  no: 'No',
  close: 'Close',
  notFound: 'This page does not exist.',
  toDashboard: 'Back to the dashboard',
  errorTitle: 'Something went wrong',
  minutes: { one: '{count} min', other: '{count} min' },
  today: 'Today',
  tomorrow: 'Tomorrow'
}
