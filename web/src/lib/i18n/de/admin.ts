export default {
  areas: 'Verwaltung',
  users: 'Benutzer',
  config: 'Einstellungen',
  allUsers: 'Alle Benutzer',
  newUser: 'Neuer Benutzer',
  createUser: 'Benutzer anlegen',
  created: '{name} angelegt',
  username: 'Benutzername',
  usernameHint: '3–40 Buchstaben, Ziffern, Punkte, Binde- oder Unterstriche; zum Anmelden.',
  emailOptional: 'E-Mail (optional)',
  emailHint:
    'Sehen nur Admins und das Mitglied selbst. Mit eingerichtetem Mailversand gehen die ' +
    'Einladung und Reset-Links hierhin.',
  role: 'Rolle',
  roleHint:
    'Mitglieder antworten und stimmen ab; Bearbeiter planen Auftritte, Songs und Proben; die ' +
    'Verwaltung verwaltet auch Benutzer und Einstellungen.',
  password: 'Passwort',
  passwordHint:
    'Mindestens 15 Zeichen, nicht der Benutzername, kein gängiges Passwort. Sag es dem Mitglied ' +
    'persönlich – oder erstelle stattdessen einen Reset-Link.',
  isMusician: 'Spielt in der Band (zählt für Verfügbarkeit und GEMA-Meldung)',
  isSinger: 'Singt Lead (wird als Leadsänger*in von Songs angeboten)',
  occasional: 'Aushilfe (bekommt Mails und zählt nur bei Auftritten, für die sie angefragt ist)',
  mustChange: 'Muss beim ersten Anmelden ein eigenes Passwort wählen',
  inviteHint:
    'Kein Passwort nötig: Du bekommst einen Einladungslink für das neue Mitglied (einmal ' +
    'gültig, 7 Tage lang) – mit eingerichtetem Mailserver wird er ihm geschickt, sonst gibst du ' +
    'ihn weiter oder lässt den QR-Code scannen.',
  inviteTitle: 'Einladung für {name}',
  inviteUrl: 'Einladungslink für {name}',
  inviteOnce: 'Nur jetzt sichtbar; gilt einmal, bis {until}. Damit wählt es sein Passwort.',
  inviteQr: 'QR-Code des Einladungslinks für {name}',
  inviteScan: 'Oder mit der Handykamera diesen Code scannen lassen:',
  openUser: '{name} öffnen',
  done: 'Fertig',
  noEmailBadge: 'keine E-Mail',
  mustChangeBadge: 'neues Passwort fällig',
  'status.active': 'Aktiv',
  'status.inactive': 'Deaktiviert',
  'status.activeOne': 'aktiv',
  'status.inactiveOne': 'deaktiviert',
  since: 'seit {when}',
  profileAndRole: 'Profil und Rolle',
  saveChanges: 'Änderungen speichern',
  saved: 'Änderungen gespeichert',
  access: 'Zugang',
  deactivateHint:
    'Ein deaktiviertes Mitglied kann sich nicht anmelden und wird sofort überall abgemeldet. ' +
    'Antworten, Stimmen und Verlauf bleiben erhalten.',
  deactivate: 'Deaktivieren',
  deactivateConfirm: '{name} deaktivieren? Die Person wird auf allen Geräten abgemeldet.',
  deactivateYes: 'Ja, deaktivieren',
  deactivated: '{name} deaktiviert',
  notYourself: 'Dich selbst kannst du hier nicht deaktivieren.',
  inactiveHint:
    'Deaktiviert: kann sich nicht anmelden. Nach dem Reaktivieren geht es wieder mit dem ' +
    'bisherigen Passwort.',
  reactivate: 'Reaktivieren',
  reactivated: '{name} reaktiviert',
  newPassword: 'Neues Passwort setzen',
  newPasswordHint:
    'Für ein Mitglied, das seines vergessen hat. Es wird auf seinen Geräten abgemeldet, meldet ' +
    'sich mit dem neuen an und wählt dann ein eigenes.',
  setPassword: 'Passwort setzen',
  passwordSet: 'Neues Passwort gesetzt',
  resetLink: 'Link zum Zurücksetzen',
  resetHint:
    'Ein Link, mit dem das Mitglied selbst ein neues Passwort wählt: Er gilt einmal, 24 Stunden ' +
    'lang (sofern der Server nicht anders eingestellt ist). Ein neuer Link macht den vorigen ' +
    'ungültig.',
  createResetLink: 'Reset-Link erstellen',
  resetAgain: 'Neuen Link erstellen',
  resetCreated: 'Reset-Link erstellt',
  resetUrl: 'Reset-Link für {name}',
  resetOnce:
    'Wird nur jetzt gezeigt; gilt einmal, bis {until}. Gib ihn per Chat oder Nachricht weiter.',
  'mail.sent': 'Der Link wurde auch an {email} geschickt.',
  'mail.sending':
    'Der Mailserver hat noch nicht geantwortet; der Link wird weiter an {email} geschickt. ' +
    'Kommt er nicht an, gib ihn selbst weiter.',
  'mail.failed': 'Der Versand an {email} ist fehlgeschlagen. Gib den Link selbst weiter.',
  'mail.no-email':
    'Nicht verschickt: Dieses Mitglied hat keine E-Mail-Adresse. Gib den Link selbst weiter.',
  'mail.not-configured':
    'Nicht verschickt (kein Mailserver eingerichtet). Gib den Link selbst weiter.',
  configTitle: 'App-Einstellungen',
  band: 'Band',
  bandName: 'Bandname',
  appName: 'App-Name',
  appNameHint: 'Steht im Titel des Browsers und in Mails.',
  timezone: 'Zeitzone',
  timezoneHint:
    'Tippe eine Stadt, um die Liste zu durchsuchen, z. B. Berlin (Europe/Berlin): Alle Daten ' +
    'und Zeiten der Band gelten darin.',
  locale: 'Sprache der Band',
  localeHint:
    'Standardsprache der App (jedes Mitglied kann im Menü umschalten), Sprache der Dokumente, ' +
    'Sortierung und Datumsformat.',
  chordNotation: 'Akkordschreibweise',
  chordNotationHint:
    'Wie die Band Akkorde in Charts schreibt. Ein Chart mit H wird immer in deutscher ' +
    'Schreibweise gelesen.',
  'chordNotation.english': 'Englisch (B, Bb)',
  'chordNotation.german': 'Deutsch (H, B)',
  lists: 'Listen',
  listsHint:
    'Ein Eintrag pro Zeile, jeder höchstens 60 Zeichen und nur einmal. Songs und Auftritte ' +
    'wählen aus diesen Listen.',
  'list.genres': 'Genres',
  'list.gigKinds': 'Arten von Auftritten',
  timing: 'Zeitplanung',
  timingHint: 'Für die Planung von Setlisten, wenn ein Song keine eigene Dauer hat.',
  defaultSong: 'Songlänge ohne eigene Dauer',
  songGap: 'Pause zwischen Songs (Sekunden)',
  songGapHint: '0 bis 600',
  setBreak: 'Pause zwischen Sets',
  defaultStart: 'Standard-Beginn',
  defaultStartHint: 'Für Auftritte ohne Beginn.',
  features: 'Funktionen',
  calendarFeature: 'Mitglieder dürfen die Termine der Band im Kalender abonnieren',
  memberSongFilesFeature: 'Mitglieder (nicht nur Bearbeiter) dürfen Songs Dateien hinzufügen',
  saveConfig: 'Einstellungen speichern',
  configSaved: 'Einstellungen gespeichert',
  logo: 'Logo',
  logoHint:
    'Das Logo erscheint auf dem Ablaufplan-PDF; seine Farbe wird zur Akzentfarbe der Dokumente.',
  logoAlt: 'Logo von {band}',
  noLogo: 'Noch kein Logo.',
  logoFile: 'Logo-Bild',
  logoFileHint: 'PNG oder JPEG, höchstens 2 MB. Ein PNG gibt den Dokumenten seine Farbe.',
  chooseLogo: 'Wähle zuerst ein Bild.',
  uploadLogo: 'Logo hochladen',
  logoUploaded: 'Logo hochgeladen',
  removeLogo: 'Logo entfernen',
  removeLogoYes: 'Ja, Logo entfernen',
  logoRemoved: 'Logo entfernt',
  colours: 'Farben der Dokumente',
  coloursFromLogo: 'Aus dem Logo; jede Textfarbe ist so angepasst, dass sie gut lesbar bleibt.',
  coloursNeutral: 'Neutrale Farben: kein Logo, ein JPEG oder ein Logo ohne kräftige Farbe.',
  sampleTitle: 'Ablaufplan',
  sampleTime: 'Zeit',
  sampleWhat: 'Was',
  sampleSoundcheck: 'Soundcheck',
  sampleDoors: 'Einlass',
  sampleSet: 'Set 1',
  sampleFooter: 'Seite 1 von 1',
  'colour.accent': 'Akzent',
  'colour.accentText': 'Akzent als Text',
  'colour.tint': 'Tönung',
  'colour.muted': 'Gedämpfter Text',
  export: 'Band-Export',
  exportHint:
    'Alles, was die Band gespeichert hat – Songs, Auftritte, Setlisten, Proben, Umfragen, ' +
    'Benutzer, die Dateien der Songs und Auftritte – als ein ZIP-Archiv, ohne Passwörter und ' +
    'Anmeldungen. Als Sicherung aufbewahren oder auf einen anderen Server mitnehmen.',
  exportLink: 'Band-Export herunterladen'
}
