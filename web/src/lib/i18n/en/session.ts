export default {
  title: 'Log in to {band}',
  username: 'Username',
  password: 'Password',
  login: 'Log in',
  loggingIn: 'Logging in…',
  forgotten: 'Forgotten your password? Your band’s admin can set a new one.',
  expired: 'Your session has ended. Please log in again — you will be taken back to where you were.'
}
