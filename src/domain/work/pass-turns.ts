import type { Kysely } from 'kysely';
import { passPage, passPosition, type PassPosition, type PassSource } from '../../store/repositories/pass.ts';
import type { Database, WorkRow } from '../../store/schema.ts';

// How much of the rows in reach one pass reads (P-pass-7). Up to READ_MOST rows of each source a
// pass, so that a pass costs the same on a desk with 400,000 rows in reach as on one with 5,000,
// and the server is not busy re-reading the same rows every minute. A long-running process
// remembers where each source's reading stopped, and its next pass goes on from there, round to
// the start: every row in reach is looked at within (rows in reach / READ_MOST) passes. A desk
// with no more than READ_MOST rows in a source has all of them read by every pass, as before.

export const READ_MOST = 5_000;
const PAGE = 200;

/** Where each desk's sources stopped, kept by whatever runs pass after pass (the server's scheduler). */
export class PassTurns {
  readonly #at = new Map<string, PassPosition>();
  get(deskId: string, source: PassSource): PassPosition | null {
    return this.#at.get(keyOf(deskId, source)) ?? null;
  }
  set(deskId: string, source: PassSource, at: PassPosition | null): void {
    if (at) this.#at.set(keyOf(deskId, source), at);
    else this.#at.delete(keyOf(deskId, source));
  }
}

// A source's place in its order outlives the horizon and the date, which move every day.
const keyOf = (deskId: string, s: PassSource) => `${deskId} ${s.kind} ${s.kind === 'waiting' ? '' : s.cls}`;

const atOrBefore = (p: PassPosition, q: PassPosition) => p.key < q.key || (p.key === q.key && p.id <= q.id);

/**
 * The rows of one source this pass reads, a page at a time: up to `most`, from after where the
 * last pass stopped (or from the start), going round to the start when the end comes first.
 */
export async function* rowsInTurn(
  db: Kysely<Database>,
  deskId: string,
  source: PassSource,
  turns: PassTurns | undefined,
  most: number = READ_MOST,
): AsyncGenerator<WorkRow[]> {
  const began = turns?.get(deskId, source) ?? null;
  let after = began;
  let wrapped = began === null;
  let read = 0;
  for (;;) {
    const want = Math.min(PAGE, most - read);
    const page = await passPage(db, deskId, source, after, want);
    read += page.length;
    // Once round to the start, only as far as where this pass began.
    const rows = wrapped && began ? page.filter((r) => atOrBefore(passPosition(source, r), began)) : page;
    if (rows.length > 0) yield rows;
    if (rows.length < page.length) return turns?.set(deskId, source, null);
    if (page.length < want) {
      if (wrapped) return turns?.set(deskId, source, null);
      wrapped = true;
      after = null;
      continue;
    }
    after = passPosition(source, page[page.length - 1]!);
    if (read >= most) return turns?.set(deskId, source, after);
  }
}
