export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** The real clock moved to start at `at`: time passes as usual from there (DESK_NOW). */
export function clockFrom(at: Date, real: Clock = systemClock): Clock {
  const offset = at.getTime() - real.now().getTime();
  return { now: () => new Date(real.now().getTime() + offset) };
}

/** The clock a process runs on: the real one, or moved to start at DESK_NOW. */
export function clockFor(startsAt: Date | null): Clock {
  return startsAt ? clockFrom(startsAt) : systemClock;
}

/** A clock tests can set and move. */
export class FixedClock implements Clock {
  constructor(private at: Date) {}
  now(): Date {
    return new Date(this.at.getTime());
  }
  set(at: Date | string): void {
    this.at = new Date(at);
  }
  advance(ms: number): void {
    this.at = new Date(this.at.getTime() + ms);
  }
}
