// Member text (display names, song titles and artists, gig and venue names, survey titles) in a
// chat notice is data, never mark-up: it must not ping the channel, hide a link behind other
// words or show an image. Every such field goes through `chatText` before it joins our own text;
// the one link of a notice is built by us from PUBLIC_URL.

export type ChatFlavor = 'slack' | 'mattermost'

/** Longest member field in a notice, in characters (an ellipsis marks a cut). */
export const NOTICE_FIELD_MAX = 80

/** Slack's own hosts; every other webhook is taken to speak Mattermost's Markdown. */
export function chatFlavor (webhookUrl: string): ChatFlavor {
  const host = new URL(webhookUrl).hostname.toLowerCase()
  return host === 'slack.com' || host.endsWith('.slack.com') ? 'slack' : 'mattermost'
}

// C0/C1 controls, line and paragraph separators, bidi embeddings, overrides and isolates, and the
// zero-width characters that could hide a mention from this filter but not from the reader.
// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]+/g
const ZWSP = '\u200b'

function plain (text: string): string {
  const flat = text.replace(INVISIBLE, ' ').replace(/\s+/g, ' ').trim()
  const chars = [...flat]
  return chars.length > NOTICE_FIELD_MAX
    ? chars.slice(0, NOTICE_FIELD_MAX - 1).join('').trimEnd() + '…'
    : flat
}

/**
 * One member field as inert chat text: one line, at most NOTICE_FIELD_MAX characters, no mention
 * (`@` is followed by a zero-width space, so `@channel`, `@here`, `@all`, `@name` stay words), no
 * URL the chat links on its own (`://` and `www.` are broken the same way), and the target's
 * mark-up escaped: Slack's `& < >` (so `<!here>` and `<url|text>` are text), Mattermost's
 * Markdown punctuation (so `[text](url)`, `![](image)`, `<url>` and emphasis are text).
 */
export function chatText (text: string, flavor: ChatFlavor): string {
  const unlinked = plain(text)
    .replace(/@/g, `@${ZWSP}`)
    .replace(/:\/\//g, `:${ZWSP}//`)
    .replace(/\bwww\./gi, (m) => `${m.slice(0, 3)}${ZWSP}.`)
  if (flavor === 'slack') {
    return unlinked.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
  }
  return unlinked.replace(/[\\`*_~[\]()!<>|&]/g, '\\$&')
}
