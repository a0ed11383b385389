import type { Role } from '$lib/api/types'

/** The roles in rising order (member < editor < admin). */
export const ROLES: Role[] = ['member', 'editor', 'admin']
