// See https://svelte.dev/docs/kit/types#app.d.ts
import type { Role } from '$lib/api/types'

declare global {
  namespace App {
    interface PageData {
      /** The role a screen needs (lib/state/guard.ts `requireRole`); none: every member. */
      requiredRole?: Role
    }
  }
}

export {}
