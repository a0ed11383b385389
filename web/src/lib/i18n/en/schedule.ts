export default {
  title: 'Running order: {name}',
  help:
    'Your own items with time, title, who, where and notes. The gig’s times and the sets are ' +
    'shown in their place; change them in the gig and the setlist.',
  'source.gig': 'from the gig',
  'source.set': 'set',
  'source.item': 'item',
  newItem: 'New item',
  time: 'Time',
  date: 'Day',
  itemTitle: 'Title',
  who: 'Who',
  where: 'Where',
  notes: 'Notes',
  remove: 'Remove “{title}”',
  add: 'Add item',
  save: 'Save running order',
  saved: 'Running order saved',
  leaveTitle: 'Leave without saving?',
  leaveText: 'Your changes to the running order are not saved yet.'
}
