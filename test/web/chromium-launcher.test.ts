import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { projectPath } from '#src/project-path.js'
import { launchBrowser } from '#test/browser/harness.js'

/** test/browser/chromium.sh with `args`, starting a stand-in that prints what it was given. */
function launch (args: string[]): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'bandstand-chromium-'))
  try {
    const standIn = join(dir, 'chromium')
    writeFileSync(standIn, '#!/bin/sh\nfor a in "$@"; do echo "$a"; done\n')
    chmodSync(standIn, 0o755)
    const run = spawnSync(projectPath('test', 'browser', 'chromium.sh'), args, {
      env: { ...process.env, BANDSTAND_CHROMIUM: standIn },
      encoding: 'utf8'
    })
    assert.equal(run.status, 0, run.stderr)
    return run.stdout.split('\n').filter(Boolean)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

test('the launcher merges every --disable-features into one, the other arguments in order', () => {
  assert.deepEqual(
    launch(['--headless', '--disable-features=Translate,MediaRouter', '--no-sandbox',
      '--disable-features=WebUIOmniboxPopup', 'about:blank']),
    ['--headless', '--no-sandbox', 'about:blank',
      '--disable-features=Translate,MediaRouter,WebUIOmniboxPopup']
  )
})

test('without --disable-features the arguments pass through unchanged, spaces and all', () => {
  assert.deepEqual(launch(['--user-data-dir=/tmp/a b', '--mute-audio']),
    ['--user-data-dir=/tmp/a b', '--mute-audio'])
  assert.deepEqual(launch([]), [])
})

test('Chromium runs with Playwright\'s disabled features and ours, and no address-bar popup',
  async (t) => {
    const browser = await launchBrowser()
    t.after(() => browser.close())
    const page = await (await browser.newContext()).newPage()
    await page.goto('chrome://version')
    const commandLine = await page.locator('#command_line').innerText()
    const switches = commandLine.split(' ').filter((arg) => arg.startsWith('--disable-features='))
    assert.equal(switches.length, 1, commandLine)
    const disabled = switches[0]!.slice('--disable-features='.length).split(',')
    // One of Playwright's (plain-HTTP navigations stay HTTP) and the harness's own.
    assert.ok(disabled.includes('HttpsUpgrades'), switches[0])
    assert.ok(disabled.includes('WebUIOmniboxPopup'), switches[0])
    const cdp = await browser.newBrowserCDPSession()
    const { targetInfos } = await cdp.send('Target.getTargets', { filter: [{}] })
    assert.deepEqual(targetInfos.filter((target) => target.url.includes('omnibox')), [])
  })
