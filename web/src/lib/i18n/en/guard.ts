export default {
  title: 'Not allowed',
  'needs.member': 'This screen is for members of the band.',
  'needs.editor': 'This screen is for the band’s editors (they plan gigs, songs and rehearsals).',
  'needs.admin': 'This screen is for the band’s admin (users and settings).',
  yourRole: 'You are logged in as {role}.',
  ask: 'If you need it, ask your band’s admin to give you the role.'
}
