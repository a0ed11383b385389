/** "Firefox on Android" from a User-Agent header: enough to recognise one's own devices. */
export function describeDevice (
  userAgent: string | null
): { browser: string; system: string } | null {
  if (!userAgent) return null
  const ua = userAgent
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /OPR\//.test(ua)
      ? 'Opera'
      : /Firefox\//.test(ua)
        ? 'Firefox'
        : /(Chrome|Chromium|CriOS)\//.test(ua)
          ? 'Chrome'
          : /Safari\//.test(ua)
            ? 'Safari'
            : /^curl\//.test(ua)
              ? 'curl'
              : (ua.split(/[\s/]/)[0] ?? '').slice(0, 30)
  const system = /Android/.test(ua)
    ? 'Android'
    : /iPhone|iPad|iPod/.test(ua)
      ? 'iOS'
      : /Windows/.test(ua)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(ua)
          ? 'macOS'
          : /CrOS/.test(ua)
            ? 'ChromeOS'
            : /Linux/.test(ua)
              ? 'Linux'
              : ''
  return { browser, system }
}
