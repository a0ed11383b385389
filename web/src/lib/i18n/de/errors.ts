export default {
  unexpected: 'Da ist etwas Unerwartetes schiefgelaufen. Bitte versuch es noch einmal.',
  NETWORK: 'Der Server ist nicht erreichbar. Prüf deine Verbindung und versuch es noch einmal.',
  VALIDATION_ERROR: 'Bitte prüf die markierten Felder.',
  INVALID_CREDENTIALS: 'Benutzername oder Passwort ist falsch.',
  RATE_LIMITED: {
    one: 'Zu viele Versuche. Bitte warte {count} Sekunde und versuch es dann noch einmal.',
    other: 'Zu viele Versuche. Bitte warte {count} Sekunden und versuch es dann noch einmal.'
  },
  RATE_LIMITED_MINUTES: {
    one: 'Zu viele Versuche. Bitte warte eine Minute und versuch es dann noch einmal.',
    other: 'Zu viele Versuche. Bitte warte {count} Minuten und versuch es dann noch einmal.'
  },
  SESSION_INVALID: 'Deine Sitzung ist abgelaufen. Bitte melde dich wieder an.',
  UNAUTHORIZED: 'Bitte melde dich zuerst an.',
  FORBIDDEN: 'Das darfst du nicht.',
  CROSS_SITE_REQUEST: 'Diese Anfrage kam von einer anderen Website und wurde abgelehnt.',
  PASSWORD_CHANGE_REQUIRED: 'Bitte wähle zuerst ein neues Passwort.',
  WRONG_PASSWORD: 'Dein aktuelles Passwort stimmt nicht.',
  WEAK_PASSWORD: 'Dieses Passwort kann nicht verwendet werden.',
  WEAK_PASSWORD_SHORT:
    'Das neue Passwort braucht mindestens {n} Zeichen – ein paar Wörter hintereinander gehen gut.',
  WEAK_PASSWORD_LONG: 'Das neue Passwort darf höchstens {n} Zeichen haben.',
  WEAK_PASSWORD_USERNAME: 'Das Passwort darf den Benutzernamen nicht enthalten.',
  WEAK_PASSWORD_COMMON:
    'Dieses Passwort steht auf der Liste häufiger Passwörter. Bitte wähl ein anderes.',
  DISPLAY_NAME_TAKEN: 'Diesen Namen trägt schon ein anderes Mitglied, oder er ist reserviert.',
  USERNAME_TAKEN: 'Dieser Benutzername ist vergeben.',
  SESSION_NOT_FOUND: 'Dieses Gerät ist schon abgemeldet.',
  BAD_REQUEST:
    'Der Server konnte diese Anfrage nicht lesen. Lade die Seite neu und versuch es noch einmal.',
  DOCUMENTS_BUSY:
    'Gerade werden viele Dokumente erstellt. Bitte versuch es in ein paar Sekunden noch einmal.',
  SERVER_BUSY: 'Der Server ist gerade sehr beschäftigt. Bitte versuch es gleich noch einmal.',
  STORAGE_FAILED:
    'Der Server konnte das nicht speichern: sein Speicher ist voll oder defekt. ' +
    'Nichts wurde gespeichert – bitte sag der Administration Bescheid.',
  SET_NOT_FOUND: 'Dieses Set gibt es nicht (mehr). Lade die Setlist neu.',
  WEB_APP_NOT_BUILT:
    'Die Web-App ist auf diesem Server nicht installiert. Bitte sag der Administration Bescheid.',
  SETLIST_ENTRY_NOT_FOUND: 'Dieser Song steht nicht mehr in der Setlist. Lade die Setlist neu.',
  CHECKLIST_ITEM_NOT_FOUND: 'Diesen Checklisten-Punkt gibt es nicht (mehr).',
  REPERTOIRE_NOT_FOUND: 'Diese Repertoire-Setlist gibt es nicht (mehr).',
  INVALID_IMAGE: 'Diese Datei ist kein lesbares PNG- oder JPEG-Bild.',
  IMAGE_TOO_LARGE: 'Dieses Bild ist zu groß. Bitte nimm ein kleineres.',
  INVALID_JSON: 'Der Server konnte das Gesendete nicht lesen. Lade die Seite neu.',
  UNEXPECTED_BODY: 'Der Server konnte diese Anfrage nicht lesen. Lade die Seite neu.',
  INVALID_CONTENT_LENGTH: 'Die Anfrage kam unvollständig an. Bitte versuch es noch einmal.',
  INVALID_URL: 'Diese Adresse ist ungültig.',
  URL_TOO_LONG: 'Diese Adresse ist zu lang.',
  UNSUPPORTED_MEDIA_TYPE: 'Diese Art Datei nimmt der Server hier nicht an.',
  GIG_NOT_FOUND: 'Diesen Gig gibt es nicht (mehr).',
  SONG_NOT_FOUND: 'Diesen Song gibt es nicht (mehr).',
  REHEARSAL_NOT_FOUND: 'Diese Probe gibt es nicht (mehr).',
  SURVEY_NOT_FOUND: 'Diese Umfrage gibt es nicht (mehr).',
  USER_NOT_FOUND: 'Dieses Mitglied gibt es nicht.',
  ROUTE_NOT_FOUND: 'Nicht gefunden.',
  UNKNOWN_USER: 'Diese Person ist kein aktives Bandmitglied.',
  USER_INACTIVE: 'Dieses Mitglied ist deaktiviert. Aktiviere es zuerst.',
  LAST_ADMIN:
    'Die Band braucht mindestens einen aktiven Admin: Mach zuerst jemand anderen zum Admin.',
  INVALID_TIMEZONE: 'Das ist kein Zeitzonenname. Wähle einen aus der Liste, z. B. Europe/Berlin.',
  UNSUPPORTED_IMAGE: 'Diese Datei ist weder ein PNG- noch ein JPEG-Bild.',
  LOGO_NOT_FOUND: 'Es gibt kein Logo (mehr).',
  DUPLICATE_SONG: 'Ein Song steht zweimal auf der Liste.',
  END_BEFORE_START: 'Das Ende muss nach dem Beginn liegen.',
  START_TOO_LATE: 'Bei diesem Beginn bleibt an dem Tag keine Zeit: früher beginnen.',
  LIMIT_REACHED: 'Diese Liste ist voll: entferne einen Eintrag, bevor du einen neuen anlegst.',
  PAYMENT_NOT_FOUND: 'Diese Zahlung gibt es nicht mehr.',
  UNKNOWN_FILE: 'Dieser Beleg ist keine Datei dieses Auftritts: erst beim Auftritt hochladen.',
  CURRENCY_MISMATCH: 'Der Betrag ist nicht in der Währung der Band.',
  MONEY_RULES_INVALID: 'Die Aufteilung geht nicht auf: Prozente und feste Beträge prüfen.',
  MONEY_VERSION_CONFLICT:
    'Jemand anderes hat das Geld inzwischen geändert: das Formular zeigt jetzt diese Fassung.',
  GIG_HAS_MONEY:
    'Dieser Auftritt hat eine Gage oder Ausgaben: das Löschen mit dem Geld bestätigen.',
  EXPORT_TOO_LARGE:
    'Die Daten der Band sind zu groß für diesen Download: nutze bandstand export oder, bei ' +
    'über 4 GB Dateien, eine Sicherung.',
  SETLIST_VERSION_CONFLICT:
    'Jemand anderes hat diese Setlist inzwischen gespeichert. Lade sie neu und versuch es ' +
    'nochmal.',
  INVALID_GIG_KIND: 'Wähl eine Art aus der Liste.',
  SET_NOT_IN_GIG:
    'Ein Set gehört zu einem anderen Gig. Lade die Setlist neu und versuch es nochmal.',
  ENTRY_NOT_IN_GIG:
    'Ein Eintrag gehört zu einem anderen Gig. Lade die Setlist neu und versuch es nochmal.',
  SET_NOT_IN_REPERTOIRE:
    'Ein Set gehört zu einem anderen Programm. Lade es neu und versuch es nochmal.',
  ENTRY_NOT_IN_REPERTOIRE:
    'Ein Eintrag gehört zu einem anderen Programm. Lade es neu und versuch es nochmal.',
  DUPLICATE_ID: 'Ein Set oder Song kommt doppelt vor. Lade die Setlist neu und versuch es nochmal.',
  UNKNOWN_SONG: 'Einen der Songs gibt es nicht mehr. Entferne ihn und speichere nochmal.',
  ENTRY_SONG_OR_TITLE:
    'Jeder Eintrag einer Setlist ist entweder ein Song oder ein freier Eintrag mit Titel.',
  SONG_RETIRED:
    'Einer der hinzugefügten Songs ist ausgemustert und kann nicht mehr hinzugefügt werden.',
  ITEM_NOT_IN_GIG:
    'Ein Punkt gehört zu einem anderen Gig. Lade den Ablaufplan neu und versuch es nochmal.',
  ENTRY_SKIPPED:
    'Dieser Song wurde inzwischen ausgelassen: Ausgelassene Songs kann man nicht bewerten.',
  ENTRY_NOT_IN_SET: 'Die Setlist hat sich inzwischen geändert: Bitte noch einmal einfügen.',
  LIVE_VERSION_CONFLICT:
    'Jemand anderes hat die Show inzwischen weitergeschaltet: Diese Änderung bleibt bestehen.',
  NOTHING_TO_UNDO: 'In dieser Show gibt es nichts mehr rückgängig zu machen.',
  TOO_MANY_STREAMS:
    'Der Server folgt schon so vielen Handys wie er kann: Dieses fragt alle 2 Sekunden nach.',
  SETLIST_EMPTY: 'Eine leere Setlist kann nicht veröffentlicht werden. Füge zuerst Songs hinzu.',
  REPERTOIRE_NAME_TAKEN: 'Ein Programm mit diesem Namen gibt es schon. Wähl einen anderen Namen.',
  RESET_TOKEN_INVALID:
    'Dieser Link ist unbekannt, benutzt oder abgelaufen. Bitte deinen Admin um einen neuen.',
  SURVEY_CLOSED: 'Diese Umfrage ist geschlossen: Antworten lassen sich nicht mehr ändern.',
  SINGLE_CHOICE: 'In dieser Umfrage kann nur eine Option ein „Ja“ bekommen.',
  UNKNOWN_OPTION:
    'Eine der Optionen gehört nicht mehr zu dieser Umfrage. Lade neu und versuch es noch einmal.',
  DUPLICATE_OPTION: 'Zwei Optionen sind gleich.',
  CLOSES_AT_IN_PAST: 'Das Ende der Umfrage muss in der Zukunft liegen.',
  OPTION_NEEDS_LABEL: 'Jede Option braucht einen Text.',
  OPTION_NEEDS_AT: 'Jede Option braucht Datum und Uhrzeit.',
  OPTION_AT_NOT_ALLOWED: 'Optionen einer Abstimmung haben kein Datum.',
  SONG_NOT_PROPOSED: 'Die Abstimmung ist vorbei: Der Song ist kein Vorschlag mehr.',
  INVALID_KEY: 'Wähl eine Tonart aus der Liste.',
  IMPORT_TOO_LARGE: 'Zu viel für einen Import: höchstens 500 Dateien, zusammen 20 MB.',
  IMPORT_NO_FILES: 'Mindestens eine Datei wählen.',
  CHART_EXPANDS_TOO_FAR:
    'Das Chart ruft seinen Refrain so oft auf, dass es zu lang würde: ihn seltener ' +
    'aufrufen.',
  CHARTS_TOO_LARGE:
    'Die Charts dieses Gigs sind zu viel für einen Download: die längsten Charts kürzen oder ' +
    'die Setlist teilen.',
  SETLIST_TOO_LONG: 'Die Setlist ist zu lang: Einträge entfernen, dann speichern.',
  CHART_TOO_LARGE: 'Das Chart ist zu lang: höchstens 64 KiB Text.',
  CHART_ENCODING: 'Das Chart ist kein UTF-8-Text. Speichere die Datei als UTF-8 und lade sie neu.',
  INVALID_GENRE: 'Wähl ein Genre aus der Liste.',
  INVALID_LINK: 'Links müssen mit http:// oder https:// beginnen.',
  INVALID_PERSON: 'Namen bitte als „Nachname, Vorname“ schreiben.',
  INVALID_TEXT: 'Der Text enthält Zeichen, die nicht gespeichert werden können.',
  CALENDAR_DISABLED: 'Kalender-Abos sind für diese Band ausgeschaltet.',
  PUSH_SUBSCRIPTION_NOT_FOUND: 'Dieses Telefon ist nicht mehr für Push-Mitteilungen angemeldet.',
  INVALID_PUSH_SUBSCRIPTION:
    'Die Push-Anmeldung des Browsers wurde abgelehnt (sie muss einen https-Push-Dienst nennen).',
  MAIL_NOT_FOUND: 'Diese Mail ist nicht mehr im Postausgang.',
  MAIL_NOT_FAILED: 'Nur eine fehlgeschlagene Mail lässt sich erneut senden.',
  MAIL_NOT_CONFIGURED: 'Dieser Server verschickt keine Mails (kein SMTP-Server eingerichtet).',
  ANSWERS_CLOSED:
    'Für diesen Termin sind die Antworten geschlossen. Ein Bearbeiter kann deine Antwort ' +
    'noch ändern.',
  LINEUP_INSTRUMENT_UNKNOWN: 'Die Besetzung dieses Auftritts braucht dieses Instrument nicht.',
  NOT_OCCASIONAL: 'Nur aktive Aushilfen werden für einen Auftritt angefragt.',
  TOO_MANY_SUBSTITUTES: 'Dieser Auftritt hat schon so viele Ersatzleute, wie er haben kann.',
  NOT_ASKED: 'Dieses Mitglied ist für den Auftritt nicht angefragt.',
  SUBSTITUTE_NOT_FOUND: 'Diese Ersatzperson steht nicht mehr beim Auftritt.',
  DUPLICATE_INSTRUMENT: 'Jedes Instrument nur einmal in der Besetzung.',
  CALENDAR_NOT_FOUND: 'Es gibt keinen Kalender-Link.',
  BODY_TOO_LARGE: 'Das sind zu viele Daten für eine Anfrage.',
  INTERNAL_ERROR:
    'Der Server hatte ein Problem. Bitte versuch es noch einmal; wenn es bleibt, sag der ' +
    'Verwaltung Bescheid.',
  FILE_NOT_FOUND:
    'Diese Datei gibt es nicht mehr — vielleicht wurde sie gelöscht.',
  INVALID_UPLOAD:
    'Wähle eine Datei (nicht leer), einen Titel und was sie ist.',
  FILE_TOO_LARGE:
    'Die Datei ist zu groß: höchstens 20 MB für PDFs, Bilder und Text, 60 MB für Aufnahmen.',
  FILES_QUOTA_EXCEEDED:
    'Der Dateispeicher der Band ist voll. Lösche alte Dateien oder frag deinen Admin.',
  UNSUPPORTED_FILE_TYPE:
    'Diese Dateiart wird nicht angenommen: PDF, Audio (MP3, M4A, Ogg, FLAC, WAV), Bilder, Text.',
  RANGE_NOT_SATISFIABLE:
    'Diesen Teil der Datei gibt es nicht. Lade neu und versuche es noch einmal.',
  status400: 'Das hat nicht geklappt: Bitte prüf deine Eingaben.',
  status401: 'Bitte melde dich wieder an.',
  status403: 'Das darfst du nicht.',
  status404: 'Nicht gefunden – vielleicht wurde es gelöscht.',
  status409: 'Jemand hat das inzwischen geändert. Lade neu und versuch es noch einmal.',
  status413: 'Das sind zu viele Daten für eine Anfrage.',
  status429: 'Zu viele Anfragen. Bitte warte einen Moment.',
  status500: 'Der Server hatte ein Problem. Bitte versuch es noch einmal.',
  status503: 'Der Server ist gerade nicht erreichbar. Bitte versuch es gleich noch einmal.',
  'field.tooShort': 'Mindestens {n} Zeichen.',
  'field.tooLong': 'Höchstens {n} Zeichen.',
  'field.tooFewItems': 'Mindestens {n} Einträge.',
  'field.tooManyItems': 'Höchstens {n} Einträge.',
  'field.tooSmall': 'Mindestens {n}.',
  'field.tooLarge': 'Höchstens {n}.',
  'field.required': 'Pflichtfeld.',
  'field.format': 'Nicht im erwarteten Format.',
  'field.choice': 'Wähl einen der angebotenen Werte.',
  'field.number': 'Gib eine ganze Zahl ein.',
  'field.unknown': 'Dieses Feld wird nicht angenommen.',
  'field.duplicates': 'Jeden Eintrag nur einmal.',
  'field.mismatch': 'Die beiden Passwörter sind verschieden.',
  'field.line': 'Zeile {line}: {message}'
}
