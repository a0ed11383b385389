export default {
  generating: '{name} wird erzeugt …',
  ready: '{name} heruntergeladen',
  opened: '{name} in einem neuen Tab geöffnet',
  download: '{name} herunterladen',
  downloadShort: 'Herunterladen'
}
