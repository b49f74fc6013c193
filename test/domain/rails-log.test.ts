import { describe, expect, it } from 'vitest';
import { setRails } from '../../src/domain/desks/rails.ts';
import { ownerDesk } from '../helpers/owner-desk.ts';

// The owner stopping the desk, or changing what it may do on its own, is in the desk's log:
// who, and from what to what. A change that changes nothing, and a refused one, log nothing.

describe("the desk's log of its rails", () => {
  const t = ownerDesk({ name: 'Rails Log Ltd' });
  const logged = async () =>
    (
      await t.store.db
        .selectFrom('events')
        .select(['kind', 'message', 'data'])
        .where('desk_id', '=', t.ctx.desk.id)
        .where('kind', 'in', ['desk_paused', 'desk_resumed', 'rails_changed'])
        .orderBy('id')
        .execute()
    ).map((e) => ({ kind: e.kind, message: e.message, data: JSON.parse(e.data) }));

  it('says who paused and resumed the desk, and which rails changed from what to what', async () => {
    await setRails(t.ctx, { paused: true });
    await setRails(t.ctx, { paused: true });
    await setRails(t.ctx, { paused: false, daily_cap: 3 });
    await setRails(t.ctx, { daily_cap: 3, act_within_days: 21 });
    await expect(setRails(t.ctx, { daily_cap: -1 })).rejects.toMatchObject({ code: 'bad_request' });
    const log = await logged();
    const before = log.find((e) => e.kind === 'rails_changed')!.data.daily_cap.from as number;
    expect(log).toEqual([
      { kind: 'desk_paused', message: 'owner paused the desk: it does nothing on its own.', data: { by: 'owner' } },
      { kind: 'desk_resumed', message: 'owner resumed the desk.', data: { by: 'owner' } },
      {
        kind: 'rails_changed',
        message: `owner changed the desk's daily cap from ${before} to 3.`,
        data: { by: 'owner', daily_cap: { from: before, to: 3 } },
      },
      {
        kind: 'rails_changed',
        message: expect.stringMatching(/^owner changed the desk's days ahead of a due date from \d+ to 21\.$/),
        data: { by: 'owner', act_within_days: { from: expect.any(Number), to: 21 } },
      },
    ]);
  });
});
