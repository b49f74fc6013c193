import { describe, expect, it } from 'vitest';
import type { Deps } from '../../src/domain/context.ts';
import { startWorkScheduler } from '../../src/app/work/scheduler.ts';
import type { WorkPassResult } from '../../src/app/work/pass.ts';

// The server's work pass: a pass that overruns its interval is never started a second time
// while it runs, a failing pass is logged and the next still comes, and stopping waits for the
// pass in flight.

describe('the work scheduler', () => {
  it('never runs two passes at once, keeps going after a failure, and waits for the pass in flight when stopped', async () => {
    let running = 0;
    let most = 0;
    let passes = 0;
    const errors: string[] = [];
    let release!: () => void;
    const enough = new Promise<void>((r) => (release = r));
    const stop = startWorkScheduler({} as Deps, {
      intervalMs: 1,
      log: { info: () => undefined, error: (_o, msg) => errors.push(msg) },
      pass: async (): Promise<WorkPassResult> => {
        running += 1;
        most = Math.max(most, running);
        passes += 1;
        // Each pass outlasts the interval many times over.
        await new Promise((r) => setTimeout(r, 20));
        running -= 1;
        if (passes === 2) throw new Error('the database went away');
        if (passes === 5) release();
        return { desks: [], failures: [] };
      },
    });
    await enough;
    await stop();
    expect(running).toBe(0);
    expect(most).toBe(1);
    expect(passes).toBeGreaterThanOrEqual(5);
    expect(errors).toEqual(['The work pass failed; the next one runs on schedule.']);
    const after = passes;
    await new Promise((r) => setTimeout(r, 30));
    expect(passes).toBe(after);
  });

  it('says an act put back for the mail server as what it was, and does not count it as an act', async () => {
    const infos: string[] = [];
    const said: object[] = [];
    const errors: string[] = [];
    let done!: () => void;
    const once = new Promise<void>((r) => (done = r));
    const act = (work_id: number, title: string, ok: boolean, put_back?: true) => ({
      work_id,
      title,
      as: 'run' as const,
      ok,
      outcome: put_back
        ? 'The mail server asked for the message to be sent later (451 Try later), so nothing was sent.'
        : '',
      activity_id: null,
      ...(put_back ? { put_back } : {}),
    });
    const stop = startWorkScheduler({} as Deps, {
      intervalMs: 60_000,
      log: {
        info: (o, msg) => {
          infos.push(msg);
          said.push(o);
        },
        error: (_o, msg) => errors.push(msg),
      },
      pass: async (): Promise<WorkPassResult> => {
        done();
        return {
          desks: [
            {
              desk_id: 'd',
              slug: 'd',
              state: 'mailbox_down',
              acts: [act(1, 'Ask for the quote', true), act(2, 'Chase the invoice', false, true)],
              faults: [],
              ms: 1,
            },
          ],
          failures: [],
        };
      },
    });
    await once;
    await stop();
    expect(infos).toEqual([
      'The desk acted on its own 1 time.',
      'The mail server did not take the message on "Chase the invoice", so nothing was sent; the row is as it was, and the desk tries again later.',
    ]);
    // Why, in the server's words: not reached, or reached and asked to wait.
    expect(said[1]).toMatchObject({ work_id: 2, outcome: expect.stringContaining('451 Try later') });
    expect(errors).toEqual([]);
  });
});
