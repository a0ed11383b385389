/** Time source; tests pass their own to step over windows such as the refresh grace period. */
export type Clock = () => Date

export const systemClock: Clock = () => new Date()
