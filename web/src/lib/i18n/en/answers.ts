export default {
  answerBy: 'Please answer by {date}.',
  closed: 'Answers are closed.',
  deadline: 'Answer by',
  deadlineHint: 'Empty: the band’s default. Members who have not answered are reminded before it.',
  lock: 'Close answers now',
  save: 'Save deadline',
  saved: 'Deadline saved',
  remind: 'Remind those who have not answered',
  reminded: {
    zero: 'Nobody to remind.',
    one: 'Reminder mailed to 1 member.',
    other: 'Reminder mailed to {count} members.'
  }
}
