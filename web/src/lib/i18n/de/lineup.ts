export default {
  title: 'Besetzung',
  none: 'Keine Besetzung angegeben: sagen, was dieser Auftritt braucht, z. B. Drums 1, Gesang 2.',
  confirmed: '{yes} von {count} zugesagt',
  noneConfirmed: 'Kein {instrument} zugesagt',
  missing: { one: '1 fehlt', other: '{count} fehlen' },
  edit: 'Besetzung bearbeiten',
  need: 'Bedarf {n}',
  instrument: 'Instrument',
  count: 'Wie viele',
  remove: '{instrument} entfernen',
  add: 'Instrument hinzufügen',
  save: 'Besetzung speichern',
  saved: 'Besetzung gespeichert'
}
