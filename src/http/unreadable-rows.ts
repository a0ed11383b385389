/**
 * A list answer never fails as a whole for one row the code cannot read (a value an older version
 * wrote after this one migrated, a hand edit): when the list's serializer refuses, the rows are
 * serialized one by one, those that fail are left out and reported (the server logs them with
 * their ids, `bandstand doctor` lists what it knows to look for). Nothing changes on the happy
 * path: the one-by-one pass runs only after the whole list failed.
 */
type Serialize = (data: unknown) => string

export interface UnreadableRows {
  method: string
  url: string
  /** The ids of the rows left out (null for a row without one). */
  ids: Array<number | string | null>
  error: string
}

export type UnreadableRowsSink = (report: UnreadableRows) => void

interface Route {
  schema?: unknown
  method: string
  url: string
}

export function skipUnreadableRows<R extends Route> (
  serialize: Serialize,
  route: R,
  compile: (route: R) => Serialize,
  report: UnreadableRowsSink
): Serialize {
  const schema = route.schema as { type?: unknown; items?: unknown }
  if (schema?.type !== 'array' || typeof schema.items !== 'object') return serialize
  let item: Serialize | undefined
  return (data) => {
    try {
      return serialize(data)
    } catch (error) {
      if (!Array.isArray(data)) throw error
      item ??= compile({ ...route, schema: schema.items })
      const kept: string[] = []
      const ids: UnreadableRows['ids'] = []
      for (const row of data) {
        try {
          kept.push(item(row))
        } catch {
          const id = (row as { id?: unknown } | null)?.id
          ids.push(typeof id === 'number' || typeof id === 'string' ? id : null)
        }
      }
      if (ids.length === 0) throw error
      report({ method: route.method, url: route.url, ids, error: (error as Error).message })
      return `[${kept.join(',')}]`
    }
  }
}
