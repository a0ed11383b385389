export default {
  heading: 'Push-Mitteilungen',
  thisPhone: 'Push-Mitteilungen auf diesem Telefon',
  topics:
    'Zu denselben Neuigkeiten wie die Mails, nach der Auswahl oben („Mails an mich“ aus lässt ' +
    'Push an). Ein Tipp darauf öffnet den Auftritt, die Probe oder die Umfrage.',
  turnedOn: 'Push-Mitteilungen sind auf diesem Telefon an',
  turnedOff: 'Push-Mitteilungen sind auf diesem Telefon aus',
  'whyNot.insecure': 'Push-Mitteilungen brauchen Bandstand über https.',
  'whyNot.install':
    'Auf iPhone und iPad: Bandstand zum Home-Bildschirm hinzufügen (Teilen → Zum ' +
    'Home-Bildschirm) und von dort öffnen, um Push-Mitteilungen einzuschalten.',
  'whyNot.unsupported': 'Dieser Browser bietet keine Push-Mitteilungen.',
  'whyNot.blocked':
    'Mitteilungen sind für Bandstand in den Browser-Einstellungen blockiert: ' +
    'Erlaube sie dort zuerst.',
  'whyNot.noWorker':
    'Push-Mitteilungen brauchen die installierte App (ihr Offline-Teil läuft nicht).'
}
