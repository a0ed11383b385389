import type { Body, Gig } from '../api/types'

type GigCreate = Body<'/gigs', 'post'>

/** The gig form's values: every field as the inputs hold it (text, '' for nothing). */
export function gigValues (gig?: Gig) {
  return {
    name: gig?.name ?? '',
    date: gig?.date ?? '',
    kind: gig?.kind ?? '',
    status: (gig?.status ?? 'inquiry') as Gig['status'],
    venueName: gig?.venue.name ?? '',
    venueAddress: gig?.venue.address ?? '',
    venueCity: gig?.venue.city ?? '',
    organizerName: gig?.organizer.name ?? '',
    organizerContact: gig?.organizer.contact ?? '',
    getInTime: gig?.getInTime ?? '',
    soundcheckTime: gig?.soundcheckTime ?? '',
    doorsTime: gig?.doorsTime ?? '',
    startTime: gig?.startTime ?? '',
    endTime: gig?.endTime ?? '',
    notes: gig?.notes ?? ''
  }
}
export type GigValues = ReturnType<typeof gigValues>

const orNull = (value: string) => value.trim() || null

/** The body of POST /gigs, and of PATCH /gigs/{id} (every field sent: '' clears it). */
export function gigBody (values: GigValues): GigCreate {
  return {
    name: values.name.trim(),
    date: values.date,
    kind: orNull(values.kind),
    status: values.status,
    venue: {
      name: orNull(values.venueName),
      address: orNull(values.venueAddress),
      city: orNull(values.venueCity)
    },
    organizer: { name: orNull(values.organizerName), contact: orNull(values.organizerContact) },
    getInTime: orNull(values.getInTime),
    soundcheckTime: orNull(values.soundcheckTime),
    doorsTime: orNull(values.doorsTime),
    startTime: orNull(values.startTime),
    endTime: orNull(values.endTime),
    notes: orNull(values.notes)
  }
}
