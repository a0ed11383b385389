// Field limits (characters) of the request schemas (schemas/), defined once: the web app's forms
// take their `maxlength` from here, so a form never lets through what the API refuses.

/** A gig's master data (schemas/gigs.ts). */
export const GIG_LIMITS = {
  name: 200,
  venueName: 200,
  venueAddress: 300,
  venueCity: 120,
  organizerName: 200,
  organizerContact: 300,
  notes: 5000
} as const

/** A song's fields (schemas/songs.ts). */
export const SONG_LIMITS = {
  title: 200,
  artist: 200,
  leadSinger: 120,
  backingVocals: 200,
  publisher: 200,
  gemaWorkNumber: 20,
  notes: 2000
} as const
