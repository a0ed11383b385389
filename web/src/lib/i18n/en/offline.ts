export default {
  updateAvailable: 'Update available',
  reload: 'Reload'
}
