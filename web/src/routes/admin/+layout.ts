import { requireRole } from '$lib/state/guard'

// Every screen under /admin is the admin's.
export const load = requireRole('admin')
