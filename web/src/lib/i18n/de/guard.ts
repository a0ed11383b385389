export default {
  title: 'Nicht erlaubt',
  'needs.member': 'Bitte melde dich an, um diese Seite zu sehen.',
  'needs.editor':
    'Diese Seite können nur die Redakteure der Band öffnen. Frag eine Redakteurin oder einen ' +
    'Redakteur, wenn etwas geändert werden soll.',
  'needs.admin': 'Diese Seite kann nur die Administration der Band öffnen.'
}
