export default {
  generating: '{name} wird erzeugt …',
  ready: '{name} heruntergeladen'
}
