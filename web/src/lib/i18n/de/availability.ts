export default {
  legend: 'Meine Verfügbarkeit: {title}',
  yes: 'Ja',
  no: 'Nein',
  maybe: 'Vielleicht',
  unanswered: 'Keine Antwort',
  saved: '{title}: „{answer}“ gespeichert',
  everyone: 'Verfügbarkeit aller',
  mine: 'Bist du dabei?',
  summary: '{yes} ja · {maybe} vielleicht · {no} nein · {unanswered} offen'
}
