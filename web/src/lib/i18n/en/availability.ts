export default {
  legend: 'My availability: {title}',
  yes: 'Yes',
  no: 'No',
  maybe: 'Maybe',
  unanswered: 'No answer',
  saved: '{title}: “{answer}” saved',
  everyone: 'Everyone’s availability',
  mine: 'Can you make it?',
  summary: '{yes} yes · {maybe} maybe · {no} no · {unanswered} open'
}
