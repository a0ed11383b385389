export default {
  generating: '{name} is being generated…',
  ready: '{name} downloaded',
  opened: '{name} opened in a new tab',
  download: 'Download {name}',
  downloadShort: 'Download'
}
