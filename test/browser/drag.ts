// Drags in Chromium as a hand makes them: with the mouse in small steps, and with a finger through
// the DevTools protocol (real touch input).
import type { Locator, Page } from 'playwright-core'

/** The middle of an element in the viewport. */
export async function centre (locator: Locator): Promise<{ x: number; y: number }> {
  const box = (await locator.boundingBox())!
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 }
}

/** A mouse drag from a handle to a point, in small steps as a hand moves. */
export async function mouseDrag (page: Page, from: Locator, to: { x: number; y: number }) {
  await from.scrollIntoViewIfNeeded()
  const start = await centre(from)
  await page.mouse.move(start.x, start.y)
  await page.mouse.down()
  await page.mouse.move(start.x, start.y + 8, { steps: 2 })
  await page.mouse.move(to.x, to.y, { steps: 12 })
  await page.mouse.up()
}

/**
 * A finger drag through the DevTools protocol (real touch input: Chromium makes the pointer
 * events) from a handle to `dy` pixels off the middle of `onto`; both are scrolled into view first.
 */
export async function touchDrag (page: Page, from: Locator, onto: Locator, dy: number) {
  const middleY = async (locator: Locator) =>
    locator.evaluate((e) => {
      const box = e.getBoundingClientRect()
      return box.top + box.height / 2 + scrollY
    })
  const between = ((await middleY(from)) + (await middleY(onto))) / 2
  await page.evaluate((y) => scrollTo(0, y - innerHeight / 2), between)
  const start = await centre(from)
  const to = await centre(onto)
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 1 })
  const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', x: number, y: number) =>
    cdp.send('Input.dispatchTouchEvent', {
      type,
      touchPoints: type === 'touchEnd' ? [] : [{ x, y, id: 1 }]
    })
  await touch('touchStart', start.x, start.y)
  const steps = 12
  for (let i = 1; i <= steps; i++) {
    await touch('touchMove', start.x, start.y + ((to.y + dy - start.y) * i) / steps)
  }
  await touch('touchEnd', start.x, to.y + dy)
  await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: false })
  await cdp.detach()
}
