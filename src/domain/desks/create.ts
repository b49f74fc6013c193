import type { Kysely } from 'kysely';
import type { Database, DeskRow } from '../../store/schema.ts';
import { addEvent } from '../../store/repositories/events.ts';
import { atomicallyOn } from '../../store/tx.ts';
import { createDesk } from './manage.ts';

// A business starting from nothing: a desk with no rows, no grants and no keys, set up from the
// screen afterwards. The log's first entry says who made it.

export interface EmptyDesk {
  name: string;
  slug: string;
  timezone: string;
  currency: string;
}

export async function createEmptyDesk(
  db: Kysely<Database>,
  input: EmptyDesk,
  opts: { now: string; by: string },
): Promise<DeskRow> {
  const name = input.name.trim();
  return atomicallyOn(db, async (tx) => {
    const desk = await createDesk(
      tx,
      { name, slug: input.slug.trim(), timezone: input.timezone.trim(), currency: input.currency.trim() },
      opts.now,
    );
    await addEvent(tx, {
      deskId: desk.id,
      kind: 'desk_created',
      message: `Desk "${desk.name}" created, empty.`,
      data: { by: opts.by },
      at: opts.now,
    });
    return desk;
  });
}
