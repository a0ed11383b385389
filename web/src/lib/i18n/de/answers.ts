export default {
  answerBy: 'Bitte bis {date} antworten.',
  closed: 'Die Antworten sind geschlossen.',
  deadline: 'Antworten bis',
  deadlineHint: 'Leer: die Vorgabe der Band. Wer nicht geantwortet hat, wird vorher erinnert.',
  lock: 'Antworten jetzt schließen',
  save: 'Frist speichern',
  saved: 'Frist gespeichert',
  remind: 'Alle erinnern, die nicht geantwortet haben',
  reminded: {
    zero: 'Niemand zu erinnern.',
    one: 'Erinnerung an 1 Mitglied verschickt.',
    other: 'Erinnerung an {count} Mitglieder verschickt.'
  }
}
