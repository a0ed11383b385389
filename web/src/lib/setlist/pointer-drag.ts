/**
 * Drag and drop of setlist entries with Pointer Events: one code path for the mouse, a finger and a
 * pen. The drag starts on an entry's handle (CSS `touch-action: none` there, so a finger on the
 * handle drags while a finger anywhere else scrolls). The row follows the pointer, a line shows
 * where it will land, the page scrolls near the window's edges, Escape cancels. Rows are measured
 * once when the drag starts (in page coordinates, so scrolling keeps them valid): a drag over 200
 * entries costs no layout per pointer move.
 *
 * Markup it relies on: lists `[data-drop-set="<set key>"]` holding rows `[data-entry="<key>"]`.
 */

export interface DropTarget {
  setKey: string
  /** Position in the target set, counted without the dragged entry. */
  index: number
}

interface Row {
  key: string
  setKey: string
  middle: number
}
interface List {
  setKey: string
  top: number
  bottom: number
  left: number
  right: number
  /** Where the line goes when the list has no rows besides the dragged one. */
  emptyLine: number
}

const THRESHOLD = 6
const EDGE = 56

export class PointerDrag {
  #root: () => HTMLElement | undefined
  #onDrop: (key: string, target: DropTarget) => void
  #onStart: (key: string) => void
  #state: {
    pointerId: number
    key: string
    handle: HTMLElement
    row: HTMLElement
    startX: number
    startY: number
    startScroll: number
    lastY: number
    lastX: number
    started: boolean
    rows: Row[]
    lists: List[]
    line: HTMLElement | null
    target: DropTarget | null
    frame: number
  } | null = null

  constructor (
    root: () => HTMLElement | undefined,
    onDrop: (key: string, target: DropTarget) => void,
    onStart: (key: string) => void = () => {}
  ) {
    this.#root = root
    this.#onDrop = onDrop
    this.#onStart = onStart
  }

  get active (): boolean {
    return this.#state?.started === true
  }

  /** `onpointerdown` of a handle. */
  start = (event: PointerEvent, key: string): void => {
    if (this.#state || (event.pointerType === 'mouse' && event.button !== 0)) return
    const handle = event.currentTarget as HTMLElement
    const row = handle.closest<HTMLElement>('[data-entry]')
    if (!row) return
    handle.setPointerCapture(event.pointerId)
    this.#state = {
      pointerId: event.pointerId,
      key,
      handle,
      row,
      startX: event.clientX,
      startY: event.clientY,
      startScroll: scrollY,
      lastX: event.clientX,
      lastY: event.clientY,
      started: false,
      rows: [],
      lists: [],
      line: null,
      target: null,
      frame: 0
    }
    handle.addEventListener('pointermove', this.#move)
    handle.addEventListener('pointerup', this.#end)
    handle.addEventListener('pointercancel', this.#cancel)
    handle.addEventListener('lostpointercapture', this.#cancel)
    addEventListener('keydown', this.#key, true)
  }

  #measure (): void {
    const state = this.#state!
    const root = this.#root()
    if (!root) return
    state.rows = []
    state.lists = []
    for (const list of root.querySelectorAll<HTMLElement>('[data-drop-set]')) {
      const box = list.getBoundingClientRect()
      state.lists.push({
        setKey: list.dataset.dropSet!,
        top: box.top + scrollY,
        bottom: box.bottom + scrollY,
        left: box.left,
        right: box.right,
        emptyLine: box.top + scrollY + 4
      })
      for (const row of list.querySelectorAll<HTMLElement>(':scope > [data-entry]')) {
        if (row.dataset.entry === state.key) continue
        const r = row.getBoundingClientRect()
        state.rows.push({
          key: row.dataset.entry!,
          setKey: list.dataset.dropSet!,
          middle: r.top + scrollY + r.height / 2
        })
      }
    }
  }

  #move = (event: PointerEvent): void => {
    const state = this.#state
    if (!state || event.pointerId !== state.pointerId) return
    state.lastX = event.clientX
    state.lastY = event.clientY
    if (!state.started) {
      if (Math.hypot(event.clientX - state.startX, event.clientY - state.startY) < THRESHOLD) {
        return
      }
      state.started = true
      this.#measure()
      state.row.classList.add('dragging')
      state.line = document.createElement('div')
      state.line.className = 'drop-line'
      state.line.setAttribute('aria-hidden', 'true')
      document.body.append(state.line)
      this.#onStart(state.key)
      this.#autoScroll()
    }
    event.preventDefault()
    this.#follow()
  }

  /** The row under the pointer, the drop target and the line: at most once per frame. */
  #follow (): void {
    const state = this.#state
    if (!state?.started) return
    const pageY = state.lastY + scrollY
    state.row.style.transform = `translateY(${pageY - state.startY - state.startScroll}px)`
    const list =
      state.lists.find((l) => pageY >= l.top && pageY <= l.bottom) ??
      state.lists.reduce<List | null>(
        (best, l) =>
          !best || distance(pageY, l) < distance(pageY, best) ? l : best,
        null
      )
    if (!list) return
    const rows = state.rows.filter((row) => row.setKey === list.setKey)
    const index = rows.filter((row) => row.middle < pageY).length
    state.target = { setKey: list.setKey, index }
    const lineY =
      rows.length === 0
        ? list.emptyLine
        : index === 0
          ? rows[0]!.middle - halfGap(rows, 0)
          : rows[index - 1]!.middle + halfGap(rows, index - 1)
    state.line!.style.transform = `translate(${list.left}px, ${lineY - scrollY}px)`
    state.line!.style.width = `${list.right - list.left}px`
  }

  #autoScroll = (): void => {
    const state = this.#state
    if (!state?.started) return
    const y = state.lastY
    const step =
      y < EDGE ? -(EDGE - y) / 3 : y > innerHeight - EDGE ? (y - innerHeight + EDGE) / 3 : 0
    if (step !== 0) {
      scrollBy(0, step)
      this.#follow()
    }
    state.frame = requestAnimationFrame(this.#autoScroll)
  }

  #end = (event: PointerEvent): void => {
    const state = this.#state
    if (!state || event.pointerId !== state.pointerId) return
    const { started, target, key } = state
    this.#finish()
    if (started && target) this.#onDrop(key, target)
  }

  #cancel = (): void => {
    if (this.#state) this.#finish()
  }

  #key = (event: KeyboardEvent): void => {
    if (event.key === 'Escape' && this.#state?.started) {
      event.preventDefault()
      event.stopPropagation()
      this.#finish()
    }
  }

  #finish (): void {
    const state = this.#state!
    this.#state = null
    cancelAnimationFrame(state.frame)
    state.handle.removeEventListener('pointermove', this.#move)
    state.handle.removeEventListener('pointerup', this.#end)
    state.handle.removeEventListener('pointercancel', this.#cancel)
    state.handle.removeEventListener('lostpointercapture', this.#cancel)
    removeEventListener('keydown', this.#key, true)
    if (state.handle.hasPointerCapture(state.pointerId)) {
      state.handle.releasePointerCapture(state.pointerId)
    }
    state.row.classList.remove('dragging')
    state.row.style.transform = ''
    state.line?.remove()
  }
}

function distance (y: number, list: List): number {
  return y < list.top ? list.top - y : y - list.bottom
}

function halfGap (rows: Row[], index: number): number {
  const next = rows[index + 1]
  const previous = rows[index - 1]
  const row = rows[index]!
  if (next) return (next.middle - row.middle) / 2
  if (previous) return (row.middle - previous.middle) / 2
  return 20
}
