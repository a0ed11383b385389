import { api, ApiFailure, call } from '$lib/api/client'
import { turnOff, type PushRegistration, type PushServer } from './push-subscription'

// The push routes as the switch uses them, and the end of push on this phone at logout.

export const pushServer: PushServer = {
  listed: async () =>
    (await call(api.GET('/me/push-subscriptions'))).subscriptions.map((s) => s.endpoint),
  publicKey: async () => (await call(api.GET('/push/key'))).publicKey,
  save: async (subscription) => {
    await call(api.POST('/me/push-subscriptions', { body: subscription }))
  },
  remove: async (endpoint) => {
    try {
      await call(api.DELETE('/me/push-subscriptions', { body: { endpoint } }))
    } catch (error) {
      // Forgotten by the server already (the push service had dropped it): off is off.
      const gone = error instanceof ApiFailure && error.code === 'PUSH_SUBSCRIPTION_NOT_FOUND'
      if (!gone) throw error
    }
  }
}

/**
 * At logout, while the session still lasts: this phone's push notifications are the member's,
 * and stop with their login here. Never waits for a service worker still starting.
 */
export async function endPushHere (): Promise<void> {
  if (!('serviceWorker' in navigator) || !('PushManager' in window)) return
  const registration = (await navigator.serviceWorker.getRegistration('/app/')) as
    PushRegistration | undefined
  if (registration) await turnOff({ registration: async () => registration }, pushServer)
}
