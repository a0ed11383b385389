/**
 * The server's password policy limits (PASSWORD_MIN/PASSWORD_MAX in src/services/password.ts,
 * which reads a file and cannot be bundled): the fields' minlength/maxlength and the WEAK_PASSWORD
 * messages use them. Once the limits live in src/shared, import them from `$shared` instead.
 */
export const PASSWORD_MIN = 15
export const PASSWORD_MAX = 256
