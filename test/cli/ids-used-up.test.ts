import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ID } from '../../src/domain/input.ts';
import { desk } from '../helpers/cli.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { makeDesk } from '../helpers/factories.ts';

// Ids go no higher than MAX_ID on either store (PostgreSQL's are int4). A table that has given
// out its last one refuses the next row in words on both, with nothing written; SQLite used to
// go on past it, to rows that no id in a path, a command or a cursor could reach.

describe.each(DIALECTS)('a table with no ids left ($name)', ({ name, open }) => {
  let store: TestStore;
  let slug: string;
  beforeAll(async () => {
    store = await open();
    slug = (await makeDesk(store.db)).desk.slug;
    const first = await desk(store.target, 'work', 'add', '--desk', slug, '--title', 'First row', '--json');
    expect(first.code).toBe(0);
    // The id given out last, as a desk that has made that many rows would have it.
    if (name === 'sqlite')
      await sql`update sqlite_sequence set seq = ${MAX_ID - 1} where name = 'work'`.execute(store.db);
    else await sql`select setval('work_id_seq', ${MAX_ID - 1})`.execute(store.db);
  });
  afterAll(async () => {
    await store?.close();
  });

  it('gives out the last id, then refuses the next row in words, writing nothing', async () => {
    const last = await desk(store.target, 'work', 'add', '--desk', slug, '--title', 'Last row', '--json');
    expect(last.code).toBe(0);
    expect(last.json().id).toBe(MAX_ID);

    const count = async (table: 'work' | 'events' | 'timeline') =>
      Number(
        (
          await store.db
            .selectFrom(table)
            .select((e) => e.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = { work: await count('work'), events: await count('events'), timeline: await count('timeline') };
    const past = await desk(store.target, 'work', 'add', '--desk', slug, '--title', 'One too many');
    expect(past.code).toBe(1);
    expect(past.err).toBe(
      'desk: The database has given out every id its work rows can have (the last is 2147483647), so nothing was written.\n',
    );
    expect({ work: await count('work'), events: await count('events'), timeline: await count('timeline') }).toEqual(
      before,
    );

    const json = await desk(store.target, 'work', 'add', '--desk', slug, '--title', 'One too many', '--json');
    expect(json.json().error.code).toBe('unavailable');

    // The rows it has are all within reach.
    const shown = await desk(store.target, 'work', 'show', String(MAX_ID), '--desk', slug, '--json');
    expect(shown.json().work.title).toBe('Last row');
  });
});
