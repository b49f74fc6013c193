// Snoozes of random rows through the full HTTP stack, in one process (inject), each with its own
// Idempotency-Key: a write every time. For the in-process write benches.
import type { Harness } from '../test/helpers/app.ts';

/** A function that snoozes one of `ids`, chosen at random, by `days`. */
export function randomSnoozes(h: Harness, key: string, ids: number[], days: number): () => Promise<void> {
  let sent = 0;
  return async () => {
    const id = ids[Math.floor(Math.random() * ids.length)]!;
    const r = await h.app.inject({
      method: 'POST',
      url: `/api/v1/work/${id}/snooze`,
      headers: {
        authorization: `Bearer ${key}`,
        'idempotency-key': `bench-${sent++}`,
        'content-type': 'application/json',
      },
      payload: JSON.stringify({ days }),
    });
    if (r.statusCode !== 200) throw new Error(`snooze answered ${r.statusCode}: ${r.body}`);
  };
}
