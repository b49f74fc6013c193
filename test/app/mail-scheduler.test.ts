import { describe, expect, it } from 'vitest';
import type { Deps } from '../../src/domain/context.ts';
import { startMailScheduler } from '../../src/app/mail/scheduler.ts';
import type { MailPassReport } from '../../src/app/mail/pass.ts';
import type { MailboxPass } from '../../src/domain/mail/read.ts';

// A mailbox fault that goes on pass after pass (a wrong password left for a week) is told when
// it starts, when it changes and when it ends, not once a poll.

const mailbox = (
  error: string | null,
  error_before: string | null,
  read = 0,
): MailboxPass & {
  desk_id: string;
  desk_slug: string;
} => ({
  connection_id: 1,
  name: 'Shop mailbox',
  status: error ? 'error' : 'read',
  error,
  error_before,
  reached: error === null,
  more: false,
  read,
  replies: 0,
  auto_replies: 0,
  bounces: 0,
  unrelated: 0,
  unparseable: 0,
  already_handled: 0,
  passed_over: 0,
  desk_id: 'dsk_1',
  desk_slug: 'bakery',
});

describe('the mail scheduler', () => {
  it('logs a lasting fault once, again when it changes, and once more when the mailbox reads again', async () => {
    const refused = 'The mail server at imap.test:993 refused the login: Authentication failed.';
    const gone = 'The mail server at imap.test:993 could not be reached (ECONNREFUSED).';
    // What each pass found, with what the pass before it left.
    const passes: Array<[string | null, string | null, number?]> = [
      [refused, null],
      [refused, refused],
      [refused, refused],
      [gone, refused],
      [gone, gone],
      [gone, gone, 3],
      [null, gone],
      [null, null],
    ];
    const said: Array<[string, string]> = [];
    let done!: () => void;
    const finished = new Promise<void>((r) => (done = r));
    let n = 0;
    const stop = startMailScheduler({} as Deps, {
      intervalMs: 1,
      log: {
        info: (_o, msg) => said.push(['info', msg]),
        error: (o, msg) => said.push(['error', `${msg} ${(o as { error: string }).error}`]),
      },
      pass: async (): Promise<MailPassReport> => {
        const p = passes[n++];
        if (!p) {
          done();
          return { desks: 1, mailboxes: [], matched: [], failures: [] };
        }
        return { desks: 1, mailboxes: [mailbox(p[0], p[1], p[2])], matched: [], failures: [] };
      },
    });
    await finished;
    await stop();
    expect(said).toEqual([
      ['error', `A mailbox could not be read. ${refused}`],
      ['error', `A mailbox could not be read. ${gone}`],
      // Messages were read before the fault stopped the pass: that is news, however often.
      ['error', `A mailbox could not be read to the end. ${gone}`],
      ['info', 'A mailbox can be read again.'],
    ]);
  });
});
