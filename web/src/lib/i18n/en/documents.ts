export default {
  generating: '{name} is being generated…',
  ready: '{name} downloaded'
}
