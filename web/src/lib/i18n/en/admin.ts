export default {
  areas: 'Admin',
  users: 'Users',
  config: 'Configuration',
  allUsers: 'All users',
  newUser: 'New user',
  createUser: 'Create user',
  created: '{name} created',
  username: 'Username',
  usernameHint: '3–40 letters, digits, dots, dashes or underscores; used to log in.',
  emailOptional: 'Email (optional)',
  emailHint:
    'Only admins and the member see it. With mail set up, the invitation and reset links are ' +
    'sent here.',
  role: 'Role',
  roleHint:
    'Members answer and vote; editors plan gigs, songs and rehearsals; admins also manage ' +
    'users and settings.',
  password: 'Password',
  passwordHint:
    'At least 15 characters, not the username, not a common password. Tell it to the member in ' +
    'person — or create a reset link instead.',
  isMusician: 'Plays in the band (counts for availability and the GEMA report)',
  isSinger: 'Sings lead (offered as lead singer of songs)',
  occasional: 'Occasional (a sub: mailed and counted only for the gigs they are asked for)',
  mustChange: 'Must choose their own password at the first login',
  inviteHint:
    'No password needed: you get an invitation link for the new member (valid once, for 7 ' +
    'days) — mailed to them when mail is set up, else pass it on or let them scan the QR code.',
  inviteTitle: 'Invitation for {name}',
  inviteUrl: 'Invitation link for {name}',
  inviteOnce: 'Shown only now; valid once, until {until}. They choose their password with it.',
  inviteQr: 'QR code of the invitation link for {name}',
  inviteScan: 'Or let them scan this with their phone’s camera:',
  openUser: 'Open {name}',
  done: 'Done',
  noEmailBadge: 'no e-mail',
  mustChangeBadge: 'new password due',
  'status.active': 'Active',
  'status.inactive': 'Deactivated',
  'status.activeOne': 'active',
  'status.inactiveOne': 'deactivated',
  since: 'since {when}',
  profileAndRole: 'Profile and role',
  saveChanges: 'Save changes',
  saved: 'Changes saved',
  access: 'Access',
  deactivateHint:
    'A deactivated member cannot log in and is logged out everywhere at once. Their answers, ' +
    'votes and history stay.',
  deactivate: 'Deactivate',
  deactivateConfirm: 'Deactivate {name}? They are logged out on every device.',
  deactivateYes: 'Yes, deactivate',
  deactivated: '{name} deactivated',
  notYourself: 'You cannot deactivate yourself here.',
  inactiveHint: 'Deactivated: cannot log in. Reactivating lets them log in with their password.',
  reactivate: 'Reactivate',
  reactivated: '{name} reactivated',
  newPassword: 'Set a new password',
  newPasswordHint:
    'For a member who forgot theirs. They are logged out on their devices, log in with the ' +
    'new one and then choose their own.',
  setPassword: 'Set password',
  passwordSet: 'New password set',
  resetLink: 'Password reset link',
  resetHint:
    'A link with which the member chooses a new password themselves: it works once, for 24 ' +
    'hours (unless the server is set up otherwise). Creating a new one makes the earlier one ' +
    'invalid.',
  createResetLink: 'Create reset link',
  resetAgain: 'Create a new link',
  resetCreated: 'Reset link created',
  resetUrl: 'Reset link for {name}',
  resetOnce: 'Shown only now; valid once, until {until}. Pass it on by chat or message.',
  'mail.sent': 'The link was also mailed to {email}.',
  'mail.sending':
    'The mail server has not answered yet; the link is still being mailed to {email}. ' +
    'If it does not arrive, pass the link on yourself.',
  'mail.failed':
    'Mailing the link to {email} failed. Pass the link on yourself.',
  'mail.no-email': 'Not mailed: this member has no email address. Pass the link on yourself.',
  'mail.not-configured': 'Not mailed (no mail server is set up). Pass the link on yourself.',
  configTitle: 'App configuration',
  band: 'Band',
  bandName: 'Band name',
  appName: 'App name',
  appNameHint: 'Shown in the browser’s title and in mails.',
  timezone: 'Timezone',
  timezoneHint:
    'Type a city to search the list, e.g. Berlin (Europe/Berlin): every date and time of the ' +
    'band is in it.',
  locale: 'Band language',
  localeHint:
    'The app’s default language (each member can switch in the menu), the documents’ language, ' +
    'sorting and date format.',
  chordNotation: 'Chord notation',
  chordNotationHint:
    'How the band writes chords in charts. A chart that uses H is read in German notation either ' +
    'way.',
  'chordNotation.english': 'English (B, Bb)',
  'chordNotation.german': 'German (H, B)',
  lists: 'Lists',
  listsHint:
    'One entry per line, each at most 60 characters and only once. Songs and gigs choose from ' +
    'these lists.',
  'list.genres': 'Genres',
  'list.gigKinds': 'Kinds of gig',
  timing: 'Timing',
  timingHint: 'Used to plan setlists when a song has no duration of its own.',
  defaultSong: 'Song length without a duration',
  songGap: 'Gap between songs (seconds)',
  songGapHint: '0 to 600',
  setBreak: 'Break between sets',
  defaultStart: 'Default start time',
  defaultStartHint: 'For gigs without a start time.',
  features: 'Features',
  calendarFeature: 'Members may subscribe to the band’s dates in their calendar app',
  memberSongFilesFeature: 'Members (not only editors) may add files to songs',
  saveConfig: 'Save configuration',
  configSaved: 'Configuration saved',
  logo: 'Logo',
  logoHint:
    'The logo appears on the running order PDF; its colour becomes the documents’ accent ' +
    'colour.',
  logoAlt: 'Logo of {band}',
  noLogo: 'No logo yet.',
  logoFile: 'Logo image',
  logoFileHint: 'PNG or JPEG, at most 2 MB. A PNG gives the documents its colour.',
  chooseLogo: 'Choose an image first.',
  uploadLogo: 'Upload logo',
  logoUploaded: 'Logo uploaded',
  removeLogo: 'Remove logo',
  removeLogoYes: 'Yes, remove the logo',
  logoRemoved: 'Logo removed',
  colours: 'Colours of the documents',
  coloursFromLogo: 'Taken from the logo; every text colour is adjusted until it reads well.',
  coloursNeutral: 'Neutral colours: no logo, a JPEG, or a logo without a strong colour.',
  sampleTitle: 'Running order',
  sampleTime: 'Time',
  sampleWhat: 'What',
  sampleSoundcheck: 'Soundcheck',
  sampleDoors: 'Doors',
  sampleSet: 'Set 1',
  sampleFooter: 'Page 1 of 1',
  'colour.accent': 'Accent',
  'colour.accentText': 'Accent as text',
  'colour.tint': 'Tint',
  'colour.muted': 'Muted text',
  export: 'Band export',
  exportHint:
    'Everything the band stored — songs, gigs, setlists, rehearsals, surveys, users, the song ' +
    'and gig files — as one zip archive, without passwords and logins. Keep it as a backup or ' +
    'take it to another server.',
  exportLink: 'Download band export'
}
