import fp from 'fastify-plugin'
import { LiveState, type LiveStateType } from '#schemas/live.js'
import { ApiError, notFound } from '#src/errors.js'
import { loadLiveState } from '#src/repositories/live.js'
import { compileSerializer } from '#src/validation.js'
import { LiveFollowers, type FollowerLimits, type LiveSnapshot } from '#src/http/live-followers.js'
import { opaqueTag, type CachedAnswer } from './response-cache.js'

declare module 'fastify' {
  interface FastifyInstance {
    liveViews: {
      /** The view at `revision`, from the response cache or rendered now; 404 for a missing gig. */
      answer(gigId: number, revision: string): CachedAnswer
      /**
       * The same view as data (its bytes read back), for a tap's answer: the tap and the fan-out
       * after it share one rendering. 404 for a missing gig.
       */
      state(gigId: number, revision: string): LiveStateType
      /** The view as a snapshot frame, or undefined when the gig does not exist. */
      snapshot(gigId: number, revision: string): LiveSnapshot | undefined
      /** The open event streams of every gig. */
      followers: LiveFollowers
    }
  }
}

export interface LiveViewsOptions {
  limits: Omit<FollowerLimits, 'heartbeatMs'> & Partial<Pick<FollowerLimits, 'heartbeatMs'>>
}

/**
 * "The live view of gig N at revision R" as one function of the data: the gig, its setlist with
 * the songs, the live state and the timing defaults of the app configuration, serialized through
 * the response schema. Pollers get its bytes from the response cache (GET /gigs_lm/{id}); followers
 * get the very same bytes in a snapshot frame whose event id is the poll's ETag, so both always
 * agree on what they saw. Nothing announces changes: after every database change (db-changes) each
 * followed view is rendered again, and sent where its bytes changed.
 */
export default fp<LiveViewsOptions>(
  async (app, options) => {
    const serialize = compileSerializer(LiveState)
    const snapshots = new WeakMap<CachedAnswer, LiveSnapshot>()

    const answer = (gigId: number, revision: string) =>
      app.responseCache.answer(`live:${gigId}`, revision, () => {
        const view = loadLiveState(app.db, gigId, app.appSettings.get().timing)
        if (!view) throw notFound('gig', gigId)
        return serialize(view)
      })

    const state = (gigId: number, revision: string) =>
      JSON.parse(answer(gigId, revision).body.toString('utf8')) as LiveStateType

    const snapshot = (gigId: number, revision: string): LiveSnapshot | undefined => {
      let view: CachedAnswer
      try {
        view = answer(gigId, revision)
      } catch (error) {
        if (error instanceof ApiError && error.code === 'GIG_NOT_FOUND') return undefined
        throw error
      }
      let result = snapshots.get(view)
      if (!result) {
        const tag = opaqueTag(view.etag)
        const head = Buffer.from(`event: snapshot\nid: ${tag}\ndata: `)
        result = { tag, frame: Buffer.concat([head, view.body, Buffer.from('\n\n')]) }
        snapshots.set(view, result)
      }
      return result
    }

    const followers = new LiveFollowers(
      { heartbeatMs: 15_000, ...options.limits },
      {
        snapshot: (gigId) => snapshot(gigId, app.dbRevision()),
        isSessionLive: (userId, sessionId) => app.isSessionLive(userId, sessionId),
        onDatabaseChange: (listener) => app.onDatabaseChange(listener),
        now: () => app.clock().getTime()
      }
    )
    app.decorate('liveViews', { answer, state, snapshot, followers })
    // Graceful shutdown: streams never end by themselves, so close them before the server waits
    // for them.
    const endAll = async () => followers.endAll()
    app.addHook('preClose', endAll)
    app.addHook('onClose', endAll)
  },
  {
    name: 'live-views',
    fastify: '5.x',
    dependencies: ['db', 'db-changes', 'clock', 'session', 'app-settings', 'response-cache']
  }
)
