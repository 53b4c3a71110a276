/** The time source of every rule that expires (sessions, tokens, lockouts). Tests move it instead of sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** The wall clock moved by `offsetMs` (TEST_CLOCK_OFFSET_DAYS: the built server living on day 15, 91 or 366). */
export function offsetClock(offsetMs: number): Clock {
  return { now: () => new Date(Date.now() + offsetMs) };
}

/** A clock tests can set and advance. */
export function testClock(start = new Date()): Clock & { set(date: Date): void; advance(ms: number): void } {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    set: (date) => {
      current = date.getTime();
    },
    advance: (ms) => {
      current += ms;
    },
  };
}

export const minutes = (n: number) => n * 60_000;
export const hours = (n: number) => n * 3_600_000;
export const days = (n: number) => n * 86_400_000;
