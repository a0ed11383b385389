export default {
  itemTitle: 'Rehearsal'
}
