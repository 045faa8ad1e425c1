/** Time as the application sees it; tests inject a clock they can move. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
