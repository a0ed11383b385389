export default {
  title: 'Ich',
  signedInAs: 'Angemeldet als {username} ({role})',
  'role.member': 'Mitglied',
  'role.editor': 'Bearbeiter',
  'role.admin': 'Verwaltung',
  profile: 'Profil',
  displayName: 'Anzeigename',
  email: 'E-Mail',
  instruments: 'Instrumente',
  instrumentsHint: 'Durch Kommas getrennt, z. B. Gitarre, Gesang',
  isSinger: 'Ich singe Lead',
  saveProfile: 'Profil speichern',
  profileSaved: 'Profil gespeichert',
  password: 'Passwort',
  passwordPolicy:
    'Mindestens 15 Zeichen – ein kurzer Satz ist leicht zu merken und schwer zu erraten. Er ' +
    'darf deinen Benutzernamen nicht enthalten und kein häufiges Passwort sein. Nach der ' +
    'Änderung sind deine anderen Geräte abgemeldet.',
  currentPassword: 'Aktuelles Passwort',
  newPassword: 'Neues Passwort',
  newPasswordHint: '15 bis 256 Zeichen',
  repeatPassword: 'Neues Passwort wiederholen',
  changePassword: 'Passwort ändern',
  passwordChanged: 'Passwort geändert. Deine anderen Geräte sind abgemeldet.',
  'mustChange.title': 'Wähle dein eigenes Passwort',
  'mustChange.why':
    'Willkommen, {name}! Bevor es weitergeht, wähle bitte ein neues Passwort. Das eben ' +
    'benutzte wurde für dich festgelegt oder stammt aus dem alten System deiner Band und ist ' +
    'kürzer als die 15 Zeichen, die Bandstand verlangt. Alles andere öffnet sich, sobald es ' +
    'geändert ist.',
  'mustChange.submit': 'Neues Passwort speichern und weiter',
  'mustChange.done': 'Neues Passwort gespeichert.',
  devices: 'Meine Geräte',
  devicesHint:
    'Wo du angemeldet bist. Melde ein Gerät ab, das du verloren hast oder nicht mehr nutzt.',
  thisDevice: 'Dieses Gerät',
  unknownDevice: 'Unbekanntes Gerät',
  deviceOn: '{browser} auf {system}',
  lastSeen: 'zuletzt genutzt {when}',
  logOutDevice: 'Abmelden: {device}',
  logOutDeviceShort: 'Abmelden',
  deviceLoggedOut: '{device} abgemeldet',
  calendar: 'Kalender-Abo',
  calendarHint:
    'Deine Gigs und Proben in der Kalender-App deines Handys: Leg einen persönlichen Link an ' +
    'und abonniere ihn. Wer den Link hat, kann die Termine der Band lesen – behalte ihn für ' +
    'dich.',
  calendarUrl: 'Dein Kalender-Link',
  calendarOnce:
    'Wird nur jetzt angezeigt. Kopier ihn oder abonniere sofort; für einen neuen leg einen ' +
    'neuen Link an.',
  copyLink: 'Link kopieren',
  copied: 'Link kopiert',
  subscribe: 'In Kalender-App abonnieren',
  calendarActive:
    'Du hast einen Kalender-Link (angelegt {when}). Er wird nur einmal angezeigt: Leg einen ' +
    'neuen an, um wieder einen zu sehen – der alte funktioniert dann nicht mehr.',
  createCalendarLink: 'Kalender-Link anlegen',
  newCalendarLink: 'Neuen Link anlegen',
  calendarCreated: 'Kalender-Link angelegt',
  revoke: 'Link widerrufen',
  revokeConfirm: 'Kalender, die den Link abonniert haben, werden nicht mehr aktualisiert.',
  revokeYes: 'Ja, widerrufen',
  calendarRevoked: 'Kalender-Link widerrufen',
  mail: 'Mail',
  mailOff: 'Dieser Server verschickt keine Mails (sein Administrator hat sie nicht eingerichtet).',
  mailNoAddress: 'Trag im Profil deine Mailadresse ein, um Mails zu bekommen.',
  mailAll: 'Mails an mich',
  mailTopics: 'Worüber',
  'mail.newEvents': 'Neue Auftritte und Proben',
  'mail.changes': 'Geänderte oder abgesagte Termine',
  'mail.reminders': 'Erinnerungen ans Antworten',
  'mail.surveys': 'Neue Umfragen',
  'mail.digest': 'Montags ein Wochenüberblick: was ansteht, was du noch beantworten musst',
  mailSave: 'Mail-Einstellungen speichern',
  mailSaved: 'Mail-Einstellungen gespeichert'
}
