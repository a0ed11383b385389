/**
 * Roles in the UI (docs/web.md): a screen that needs a role says so in its load function,
 * and the root layout shows the "not allowed" page instead of the screen (the screen's component
 * is never created, so it loads nothing the API would refuse). Controls inside a screen use
 * `can()` (session.svelte.ts) and the `may…` rules below, which mirror the API's rules.
 *
 *   // routes/admin/+layout.ts (every screen below it) or a route's +page.ts
 *   export const load = requireRole('admin')
 */
import type { Role } from '../api/types'
import { can, session } from './session.svelte'

/** The load function of a screen (or a folder of screens) that needs `role` or a higher one. */
export function requireRole (role: Role): () => { requiredRole: Role } {
  return () => ({ requiredRole: role })
}

/** Whether the logged-in user may open a screen that needs `role` (no requirement: everyone). */
export function mayOpen (role: Role | undefined): boolean {
  return role === undefined || can(role)
}

/** Closing and deleting a survey: its creator, editors and admins (as the API rules). */
export function mayManageSurvey (survey: { createdBy: number }): boolean {
  return survey.createdBy === session.user?.id || can('editor')
}
