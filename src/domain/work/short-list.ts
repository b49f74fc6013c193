import type { WorkRow } from '../../store/schema.ts';

// The rows a work pass will act on, kept while it reads the rows in reach a page at a time
// (P-pass-6): the best few in the queue's order, and never two for one address, since the desk sends
// one message a day to an address.

export interface Choice {
  row: WorkRow;
  as: 'run' | 'chase';
  /** The address the act would write to, when it writes. */
  to: string | undefined;
}

/** The best `most` choices in queue order, one for each address. */
export class ShortList {
  readonly items: Choice[] = [];
  readonly #ids = new Set<number>();
  readonly #byAddress = new Map<string, Choice>();
  constructor(
    private readonly most: number,
    /** The queue's order on the pass's day (`queueOrderOn`). */
    readonly order: (a: WorkRow, b: WorkRow) => number,
  ) {}

  /** False when the row is kept already, or the list is full of rows ahead of it. */
  mightTake(row: WorkRow): boolean {
    const last = this.items[this.most - 1];
    return !this.#ids.has(row.id) && !(last && this.order(row, last.row) >= 0);
  }

  heldFor(to: string): Choice | undefined {
    return this.#byAddress.get(to);
  }

  /** Keeps the choice in its place, in place of the one for its address if any. */
  add(c: Choice): void {
    const held = c.to ? this.#byAddress.get(c.to) : undefined;
    if (held) this.#drop(held);
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.order(this.items[mid]!.row, c.row) < 0) lo = mid + 1;
      else hi = mid;
    }
    this.items.splice(lo, 0, c);
    this.#ids.add(c.row.id);
    if (c.to) this.#byAddress.set(c.to, c);
    if (this.items.length > this.most) this.#drop(this.items[this.items.length - 1]!);
  }

  #drop(c: Choice): void {
    this.items.splice(this.items.indexOf(c), 1);
    this.#ids.delete(c.row.id);
    if (c.to) this.#byAddress.delete(c.to);
  }
}
