/** The cookies a response sets, as `app.inject` reads them (the session tests' view of them). */
export type SetCookie = {
  name: string
  value: string
  httpOnly?: boolean
  secure?: boolean
  sameSite?: string
  path?: string
  maxAge?: number
}
export const cookiesOf = (response: { cookies: unknown }) => response.cookies as SetCookie[]
export const cookie = (response: { cookies: unknown }, name: string) =>
  cookiesOf(response).find((c) => c.name === name)
