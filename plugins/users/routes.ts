import { Type } from '@sinclair/typebox'
import { forgetInitialAdminPassword } from '#src/bootstrap.js'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorResponse, IdParams, NoContent } from '#schemas/common.js'
import { User, UserCreate, UserListQuery, UserPatch } from '#schemas/users.js'
import { UserCreated } from '#schemas/invitations.js'
import type { LinkMail } from '#plugins/password-reset/link-mail.js'
import type { AuthUser } from '#plugins/app/session.js'
import { conflict, notFound, weakPassword } from '#src/errors.js'
import {
  hashPassword,
  passwordWeakness,
  UNUSABLE_PASSWORD_HASH
} from '#src/auth/password.js'
import { revokeUserSessions } from '#src/repositories/sessions.js'
import { deleteCalendarToken } from '#src/repositories/calendar-tokens.js'
import {
  createInviteLink,
  endResetLinks,
  INVITE_LINK_DAYS
} from '#src/repositories/password-resets.js'
import {
  countOtherActiveAdmins,
  findUserById,
  insertUser,
  listUsers,
  toUser,
  updateUser,
  type UserChanges
} from '#src/repositories/users.js'
import type { UserRow } from '#src/db/schema.js'
import singerRoutes from './singer-routes.js'

const lastAdmin = () =>
  conflict('LAST_ADMIN', 'the last active admin cannot be demoted or deactivated')

export interface UserRoutesOptions {
  /** Where invitations point and how they are mailed (shared with reset links). */
  links: LinkMail
  /** DATA_DIR: the kept first admin password goes when an admin sets that admin's password. */
  dataDir?: string
}

/** Band members: everyone reads, admins manage (docs/api.md → Sessions and users). */
const userRoutes: FastifyPluginAsyncTypebox<UserRoutesOptions> = async (
  app,
  { links, dataDir }
) => {
  const canSeeEmail = (viewer: AuthUser, row: UserRow) =>
    viewer.role === 'admin' || viewer.id === row.id
  const view = (viewer: AuthUser, row: UserRow) => toUser(row, canSeeEmail(viewer, row))

  /**
   * Applies changes in one synchronous transaction: the last-admin check and the write cannot be
   * split by another request; leaving the active admins ends sessions (and the feed URL) at once.
   */
  const applyChanges = (target: UserRow, changes: UserChanges, keepSessionId?: number) =>
    app.db.transaction(() => {
      const now = app.clock()
      const wasActiveAdmin = target.role === 'admin' && target.status === 'active'
      const leavesAdmins =
        (changes.role !== undefined && changes.role !== 'admin') || changes.status === 'inactive'
      if (wasActiveAdmin && leavesAdmins && countOtherActiveAdmins(app.db, target.id) === 0) {
        throw lastAdmin()
      }
      const row = updateUser(app.db, target.id, changes, now)!
      // Deactivation ends the feed URL with the sessions; a reactivated member subscribes anew.
      // (Reactivation ends it too: members deactivated by an older version still have theirs.)
      if (changes.status !== undefined && changes.status !== target.status) {
        deleteCalendarToken(app.db, target.id)
      }
      if (changes.status === 'inactive') revokeUserSessions(app.db, target.id, now)
      else if (changes.passwordHash) revokeUserSessions(app.db, target.id, now, keepSessionId)
      // A link made before a new password, a deactivation or a reactivation dies with it.
      const statusChanged = changes.status !== undefined && changes.status !== target.status
      if (changes.passwordHash || statusChanged) endResetLinks(app.db, target.id, now)
      return row
    })

  const loadTarget = (id: number) => {
    const row = findUserById(app.db, id)
    if (!row) throw notFound('user', id)
    return row
  }

  app.get(
    '/users',
    {
      config: { access: 'member' },
      schema: {
        tags: ['users'],
        summary: 'All users, by display name; email only for admins and for yourself',
        querystring: UserListQuery,
        response: { 200: Type.Array(User) }
      }
    },
    async (request) => listUsers(app.db, request.query.status).map((row) => view(request.user, row))
  )

  app.get(
    '/users/:id',
    {
      config: { access: 'member' },
      schema: {
        tags: ['users'],
        summary: 'One user; email only for admins and for yourself',
        params: IdParams,
        response: { 200: User, 404: ErrorResponse }
      }
    },
    async (request) => view(request.user, loadTarget(request.params.id))
  )

  app.post(
    '/users',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['users'],
        summary: 'Create a user (admin): with an invite link, or an initial password',
        description:
          'Without `password` the answer carries an invite link (`invite`): it works once, for ' +
          `${INVITE_LINK_DAYS} days, and sets the member's first password (POST ` +
          '/password-reset); with SMTP_URL it is also mailed. With `password` (policy: 400 ' +
          'WEAK_PASSWORD) the user must change it at first login. Usernames are unique ' +
          'ignoring case (409 USERNAME_TAKEN).',
        body: UserCreate,
        response: { 201: UserCreated, 409: ErrorResponse }
      }
    },
    async (request, reply) => {
      const { password, passwordChangeRequired: _ignored, ...input } = request.body
      if (password !== undefined) {
        const weakness = passwordWeakness(password, input.username)
        if (weakness) throw weakPassword(weakness)
        const hash = await app.passwordWork(request, () => hashPassword(password))
        // A password someone else chose is known to them: the member replaces it first thing.
        const held = { ...input, passwordChangeRequired: true }
        const row = insertUser(app.db, held, hash, app.clock())
        return reply.status(201).send(toUser(row, true))
      }
      const now = app.clock()
      // The user and their link in one transaction: never a member nobody can log in as.
      const { row, token, expiresAt } = app.db.transaction((tx) => {
        const row = insertUser(tx, input, UNUSABLE_PASSWORD_HASH, now)
        return { row, ...createInviteLink(tx, row.id, request.user.id, now) }
      })
      const url = links.url(request, token)
      const mail = await links.send(app, request, { user: row, url, kind: 'invite', expiresAt })
      return reply
        .status(201)
        .send({ ...toUser(row, true), invite: { url, expiresAt: expiresAt.toISOString(), mail } })
    }
  )

  app.patch(
    '/users/:id',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['users'],
        summary: 'Change a user (admin): role, status, profile, new password',
        description:
          'Deactivation ends all their sessions at once; a new password ends all ' +
          'their other sessions. `passwordChangeRequired: true` holds the user to choosing a ' +
          'new password (an initial one you set) before any other route answers. ' +
          'The last active admin cannot be demoted or deactivated (409 LAST_ADMIN).',
        params: IdParams,
        body: UserPatch,
        response: { 200: User, 404: ErrorResponse, 409: ErrorResponse }
      }
    },
    async (request) => {
      const target = loadTarget(request.params.id)
      const { password, ...changes } = request.body
      let passwordHash: string | undefined
      if (password !== undefined) {
        const weakness = passwordWeakness(password, target.username)
        if (weakness) throw weakPassword(weakness)
        passwordHash = await app.passwordWork(request, () => hashPassword(password))
      }
      // Re-read after the slow hash so the last-admin check sees the current state.
      const self = target.id === request.user.id
      const keep = self ? request.user.sessionId : undefined
      // A password set for someone else is known to the admin: the member replaces it first.
      const passwordChanges = passwordHash
        ? { passwordHash, ...(self ? {} : { passwordChangeRequired: true }) }
        : {}
      const row = applyChanges(loadTarget(target.id), { ...changes, ...passwordChanges }, keep)
      if (passwordHash && dataDir) forgetInitialAdminPassword(dataDir, row.username)
      return toUser(row, true)
    }
  )

  app.delete(
    '/users/:id',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['users'],
        summary:
          'Deactivate a user (admin); the user and their history stay, all their sessions end',
        description:
          'Idempotent: an already inactive user also answers 204. The last active ' +
          'admin: 409 LAST_ADMIN.',
        params: IdParams,
        response: { 204: NoContent, 404: ErrorResponse, 409: ErrorResponse }
      }
    },
    async (request, reply) => {
      const target = loadTarget(request.params.id)
      applyChanges(target, { status: 'inactive' })
      return reply.status(204).send(null)
    }
  )
  await app.register(singerRoutes)
}
export default userRoutes
