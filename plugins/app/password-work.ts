import fp from 'fastify-plugin'
import type { FastifyRequest } from 'fastify'
import { addressKey } from '#src/http/address-key.js'
import { PasswordGate, PASSWORD_WORK } from '#src/auth/password-gate.js'

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Runs password hashing for a request through the shared gate (src/auth/password-gate.ts):
     * a route of a logged-in member before anonymous ones, anonymous ones fairly by address.
     * Refused: PasswordGateBusy, answered 503 SERVER_BUSY with Retry-After (plugins/app/errors.ts).
     */
    passwordWork<T>(request: FastifyRequest, work: () => Promise<T>): Promise<T>
    passwordGate: PasswordGate
  }
}

export default fp(
  async (app) => {
    const gate = new PasswordGate(PASSWORD_WORK)
    app.decorate('passwordGate', gate)
    app.decorate('passwordWork', <T>(request: FastifyRequest, work: () => Promise<T>) =>
      gate.run(
        {
          address: addressKey(request.ip),
          member: (request.routeOptions.config.access ?? 'public') !== 'public'
        },
        work
      )
    )
  },
  { name: 'password-work', fastify: '5.x' }
)
