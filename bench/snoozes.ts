// Snoozes of random rows through the full HTTP stack, in one process (inject), each with its own
// Idempotency-Key: a write every time. For the in-process write benches.
import type { Harness } from '../test/helpers/app.ts';

/** A function that snoozes one of the desk's rows, chosen at random, by `days`. */
export async function randomSnoozes(
  h: Harness,
  desk: { desk: { id: string }; key: string },
  days: number,
): Promise<() => Promise<void>> {
  const ids = (await h.store.db.selectFrom('work').select('id').where('desk_id', '=', desk.desk.id).execute()).map(
    (r) => r.id,
  );
  let sent = 0;
  return async () => {
    const id = ids[Math.floor(Math.random() * ids.length)]!;
    const r = await h.app.inject({
      method: 'POST',
      url: `/api/v1/work/${id}/snooze`,
      headers: {
        authorization: `Bearer ${desk.key}`,
        'idempotency-key': `bench-${sent++}`,
        'content-type': 'application/json',
      },
      payload: JSON.stringify({ days }),
    });
    if (r.statusCode !== 200) throw new Error(`snooze answered ${r.statusCode}: ${r.body}`);
  };
}
