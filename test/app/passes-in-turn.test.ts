import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMailPass } from '../../src/app/mail/pass.ts';
import { runWatchPass } from '../../src/app/watches/pass.ts';
import { runWorkPass } from '../../src/app/work/pass.ts';
import { setGrant } from '../../src/domain/grants/manage.ts';
import { harness, type Harness } from '../helpers/app.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { makeDesk } from '../helpers/factories.ts';
import { turnsDuring } from '../helpers/turns.ts';

// A server holds many desks, most with nothing to do. Each pass lets the process's other work
// (requests) in between two desks, which a pass run without a break would hold off to its end.

const DESKS = 40;

describe.each(DIALECTS)('the passes over many desks ($name)', ({ open }) => {
  let store: TestStore;
  let h: Harness;
  beforeAll(async () => {
    store = await open();
    h = await harness(store);
    for (let i = 0; i < DESKS; i++) {
      const { desk } = await makeDesk(store.db, { name: `Idle ${i}` });
      for (const cls of ['reach_out', 'chase', 'file'] as const)
        await setGrant(store.db, {
          deskId: desk.id,
          cls,
          granted: true,
          now: h.clock.now().toISOString(),
          by: 'owner',
        });
    }
  });
  afterAll(async () => {
    await h?.close();
    await store?.close();
  });

  it('work, watches and mail each give the rest of the process a turn between two desks', async () => {
    const desks = (await store.db.selectFrom('desks').select('id').execute()).length;
    expect(desks).toBeGreaterThanOrEqual(DESKS);
    for (const [name, pass] of [
      ['work', () => runWorkPass(h.deps)],
      ['watches', () => runWatchPass(h.deps)],
      ['mail', () => runMailPass(h.deps)],
    ] as const)
      expect(await turnsDuring(pass), name).toBeGreaterThanOrEqual(desks - 1);
  });
});
