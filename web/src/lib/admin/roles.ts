import { ROLES_RISING } from '$shared/enums'

/** The roles in rising order (member < editor < admin). */
export const ROLES = ROLES_RISING
