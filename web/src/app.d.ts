// See https://svelte.dev/docs/kit/types#app.d.ts
import type { Role } from '$lib/api/types'

declare global {
  namespace App {
    interface PageData {
      /** The role a screen needs (lib/state/guard.ts `requireRole`); none: every member. */
      requiredRole?: Role
      /**
       * A stage screen (the live page): the root layout leaves out its top bar and navigation,
       * which the stage theme hides anyway.
       */
      stage?: boolean
    }
  }
}

export {}
