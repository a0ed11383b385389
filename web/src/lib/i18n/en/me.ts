export default {
  title: 'Me',
  signedInAs: 'Logged in as {username} ({role})',
  'role.member': 'member',
  'role.editor': 'editor',
  'role.admin': 'admin',
  profile: 'Profile',
  displayName: 'Display name',
  email: 'Email',
  instruments: 'Instruments',
  instrumentsHint: 'Separated by commas, e.g. Guitar, Vocals',
  isSinger: 'I sing lead',
  saveProfile: 'Save profile',
  profileSaved: 'Profile saved',
  password: 'Password',
  passwordPolicy:
    'At least 15 characters — a short sentence is easy to remember and hard to guess. It must ' +
    'not contain your username or be a common password. Changing it logs out your other ' +
    'devices.',
  currentPassword: 'Current password',
  newPassword: 'New password',
  newPasswordHint: '15 to 256 characters',
  repeatPassword: 'Repeat new password',
  changePassword: 'Change password',
  passwordChanged: 'Password changed. Your other devices are logged out.',
  'mustChange.title': 'Choose your own password',
  'mustChange.why':
    'Welcome, {name}! Before you go on, please choose a new password. The one you just used ' +
    'was set for you, or it comes from your band’s old system and is shorter than the 15 ' +
    'characters Bandstand asks for. Everything else opens as soon as it is changed.',
  'mustChange.submit': 'Save new password and continue',
  'mustChange.done': 'New password saved.',
  devices: 'My devices',
  devicesHint: 'Where you are logged in. Log out a device you lost or no longer use.',
  thisDevice: 'This device',
  unknownDevice: 'Unknown device',
  deviceOn: '{browser} on {system}',
  lastSeen: 'last used {when}',
  logOutDevice: 'Log out {device}',
  logOutDeviceShort: 'Log out',
  deviceLoggedOut: '{device} logged out',
  calendar: 'Calendar subscription',
  calendarHint:
    'Your gigs and rehearsals in your phone’s calendar app: create a personal link and ' +
    'subscribe to it. Anyone with the link can read the band’s dates, so keep it to yourself.',
  calendarUrl: 'Your calendar link',
  calendarOnce:
    'Shown only now. Copy it or subscribe right away; for a new one, create a new link.',
  copyLink: 'Copy link',
  copied: 'Link copied',
  subscribe: 'Subscribe in calendar app',
  calendarActive:
    'You have a calendar link (created {when}). It is shown only once: create a new link to see ' +
    'one again — the old one then stops working.',
  createCalendarLink: 'Create calendar link',
  newCalendarLink: 'Create new link',
  calendarCreated: 'Calendar link created',
  revoke: 'Revoke link',
  revokeConfirm: 'Calendars subscribed to the link stop updating.',
  revokeYes: 'Yes, revoke',
  calendarRevoked: 'Calendar link revoked',
  mail: 'Mail',
  mailOff: 'This server sends no mail (its administrator has not set it up).',
  mailNoAddress: 'Enter your email address in your profile to get mail.',
  mailAll: 'Mail me',
  mailTopics: 'About',
  'mail.newEvents': 'New gigs and rehearsals',
  'mail.changes': 'Changed or cancelled dates',
  'mail.reminders': 'Reminders to answer',
  'mail.surveys': 'New surveys',
  'mail.digest': 'A weekly digest on Mondays: what is coming, what you still owe',
  mailSave: 'Save mail settings',
  mailSaved: 'Mail settings saved'
}
