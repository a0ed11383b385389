/**
 * The dev server's proxy (`npm run dev:web`, the API on :3000): every path outside the app's base
 * `/app` is the API's, so a new API route needs no entry here. Vite reads a key starting with `^`
 * as a regular expression.
 */
export const API_PATHS = '^/(?!app(?:[/?#]|$))'

export function devProxy (target: string): Record<string, string> {
  return { [API_PATHS]: target }
}
