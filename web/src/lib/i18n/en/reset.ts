export default {
  title: 'Set a new password',
  checking: 'Checking the link…',
  noToken:
    'This link is incomplete. Open the whole link your admin sent you, or ask for a new one.',
  toLogin: 'To the login page',
  hello: 'Hello {name}! Choose a new password for your account “{username}”.',
  policy:
    'At least 15 characters — a short sentence is easy to remember and hard to guess; not your ' +
    'username, not a common password. The link works once, until {until}. Afterwards you are ' +
    'logged out everywhere and log in with the new password.',
  submit: 'Set new password',
  done: 'Your new password is set. Log in with it.',
  inviteTitle: 'Choose your password',
  inviteHello:
    'Hello {name}! You are invited to the band’s Bandstand. Choose the password for your ' +
    'account “{username}”.',
  invitePolicy:
    'At least 15 characters — a short sentence is easy to remember and hard to guess; not your ' +
    'username, not a common password. The invitation works once, until {until}.',
  inviteSubmit: 'Save my password',
  inviteDone: 'Your password is set. Log in with your username and it.'
}
