import { requireRole } from '$lib/state/guard'

export const load = requireRole('editor')
