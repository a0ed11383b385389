export default {
  title: 'Not allowed',
  'needs.member': 'Please log in to see this page.',
  'needs.editor':
    'Only the band’s editors can open this page. Ask an editor if something needs changing.',
  'needs.admin': 'Only the band’s admin can open this page.'
}
