export default {
  title: 'Bei {band} anmelden',
  username: 'Benutzername',
  password: 'Passwort',
  login: 'Anmelden',
  loggingIn: 'Anmeldung läuft …',
  forgotten: 'Passwort vergessen? Die Verwaltung eurer Band kann ein neues setzen.',
  expired:
    'Deine Sitzung ist abgelaufen. Bitte melde dich wieder an – danach geht es dort weiter, wo ' +
    'du warst.'
}
