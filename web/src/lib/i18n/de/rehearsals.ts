export default {
  itemTitle: 'Probe'
}
