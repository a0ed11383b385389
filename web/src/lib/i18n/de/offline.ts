export default {
  updateAvailable: 'Neue Version verfügbar',
  reload: 'Neu laden'
}
