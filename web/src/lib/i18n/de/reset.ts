export default {
  title: 'Neues Passwort setzen',
  checking: 'Der Link wird geprüft …',
  noToken:
    'Dieser Link ist unvollständig. Öffne den ganzen Link, den dir dein Admin geschickt hat, ' +
    'oder bitte um einen neuen.',
  toLogin: 'Zur Anmeldung',
  hello: 'Hallo {name}! Wähle ein neues Passwort für dein Konto „{username}“.',
  policy:
    'Mindestens 15 Zeichen – ein kurzer Satz ist leicht zu merken und schwer zu erraten; nicht ' +
    'dein Benutzername, kein gängiges Passwort. Der Link gilt einmal, bis {until}. Danach bist ' +
    'du überall abgemeldet und meldest dich mit dem neuen Passwort an.',
  submit: 'Neues Passwort setzen',
  done: 'Dein neues Passwort ist gesetzt. Melde dich damit an.',
  inviteTitle: 'Wähle dein Passwort',
  inviteHello:
    'Hallo {name}! Du bist zu Bandstand deiner Band eingeladen. Wähle das Passwort für dein ' +
    'Konto „{username}“.',
  invitePolicy:
    'Mindestens 15 Zeichen – ein kurzer Satz ist leicht zu merken und schwer zu erraten; nicht ' +
    'dein Benutzername, kein gängiges Passwort. Die Einladung gilt einmal, bis {until}.',
  inviteSubmit: 'Mein Passwort speichern',
  inviteDone: 'Dein Passwort ist gesetzt. Melde dich mit Benutzername und Passwort an.'
}
