import fp from 'fastify-plugin'
import fastifySwagger from '@fastify/swagger'
import fastifySwaggerUi from '@fastify/swagger-ui'

export interface SwaggerPluginOptions {
  enabled: boolean
  version: string
}

/**
 * The OpenAPI document is generated from the routes' TypeBox schemas. It is always built (tests and
 * the auth matrix read it through app.swagger()); only the /docs routes are switched off by
 * DOCS_ENABLED.
 */
export default fp<SwaggerPluginOptions>(
  async (app, options) => {
    await app.register(fastifySwagger, {
      openapi: {
        openapi: '3.0.3',
        info: {
          title: 'Bandstand API',
          version: options.version,
          description:
            'Band and gig management. Log in with POST /login; the session travels ' +
            'in httpOnly cookies (access_token, refresh_token; __Host- prefixed over HTTPS).'
        },
        components: {
          securitySchemes: {
            cookieAuth: {
              type: 'apiKey',
              in: 'cookie',
              name: 'access_token',
              description: 'set by POST /login'
            }
          }
        },
        tags: [
          { name: 'sessions', description: 'Login, refresh, logout and the current user' },
          { name: 'users', description: 'Band members' },
          { name: 'config', description: 'Public app configuration and logo' },
          { name: 'songs', description: 'Repertoire and proposals' },
          { name: 'rehearsals', description: 'Rehearsals and availability' },
          { name: 'surveys', description: 'Polls and date finding' },
          { name: 'gigs', description: 'Gigs, setlists, running order, availability' },
          { name: 'live', description: 'Live mode on stage' },
          { name: 'money', description: 'Fees, expenses, shares, balances, season figures' },
          { name: 'mail', description: 'Mail to members: outbox, reminders, answer deadlines' },
          { name: 'answers', description: 'The links in a member\'s mail: answer, unsubscribe' },
          { name: 'documents', description: 'Setlist PDF, running-order PDF, GEMA export' },
          { name: 'files', description: 'Sheets, recordings, documents, images of songs and gigs' },
          { name: 'calendar', description: 'Personal iCal feed' },
          { name: 'repertoire', description: 'Repertoire setlists: standard programmes' },
          { name: 'statistics', description: 'Season, gig and song statistics' },
          { name: 'exports', description: 'Season setlists and the full band export' },
          { name: 'operations', description: 'Health' }
        ]
      }
    })
    if (options.enabled) {
      await app.register(fastifySwaggerUi, {
        routePrefix: '/docs',
        uiConfig: { withCredentials: true, persistAuthorization: false }
      })
    }
  },
  { name: 'swagger', fastify: '5.x' }
)
