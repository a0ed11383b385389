import { ROLES_RISING } from '$shared/enums'

/** The roles in rising order (README: member < editor < admin). */
export const ROLES = ROLES_RISING
