import ICAL from 'ical.js'

/** Parsed back with ical.js, an independent RFC 5545 parser. */
export function parseEvents (text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text))
  return {
    calendar,
    events: calendar.getAllSubcomponents('vevent').map((vevent) => {
      const event = new ICAL.Event(vevent)
      return {
        uid: event.uid,
        summary: event.summary,
        start: event.startDate.toJSDate().toISOString(),
        end: event.endDate.toJSDate().toISOString(),
        allDay: event.startDate.isDate,
        status: vevent.getFirstPropertyValue('status'),
        sequence: event.sequence,
        location: event.location,
        description: event.description,
        lastModified: String(vevent.getFirstPropertyValue('last-modified'))
      }
    })
  }
}
