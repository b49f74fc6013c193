// How long the desk's own sends wait after its mail server could not be reached (P-pass-8):
// a minute after the first miss, doubling with each miss after it, at most an hour, and over at
// the first send that reaches the server. Kept in memory by whatever runs pass after pass (the
// server's scheduler); a pass run once by hand has none and tries at once.

const FIRST_MS = 60_000;
const LONGEST_MS = 3_600_000;

export class SendHold {
  readonly #held = new Map<string, { until: number; misses: number }>();

  /** The instant the desk's sends may be tried again, while that is still to come. */
  until(deskId: string, now: Date): Date | null {
    const h = this.#held.get(deskId);
    return h && h.until > now.getTime() ? new Date(h.until) : null;
  }

  /** The server could not be reached again: hold twice as long as last time. */
  missed(deskId: string, now: Date): Date {
    const misses = (this.#held.get(deskId)?.misses ?? 0) + 1;
    const until = now.getTime() + Math.min(LONGEST_MS, FIRST_MS * 2 ** Math.min(misses - 1, 20));
    this.#held.set(deskId, { until, misses });
    return new Date(until);
  }

  /** A send reached the server. */
  clear(deskId: string): void {
    this.#held.delete(deskId);
  }
}
