/** The polite live region in the layout: status messages ("Saved", "Answer sent") are read out. */
export const announcer = $state({ message: '', key: 0 })

let timer: ReturnType<typeof setTimeout> | undefined

export function announce (message: string): void {
  announcer.message = message
  announcer.key++
  clearTimeout(timer)
  timer = setTimeout(() => {
    announcer.message = ''
  }, 6000)
}
