import { deskContext, type Deps } from '../../domain/context.ts';
import type { MatchedMail } from '../../domain/mail/apply.ts';
import { type MailboxPass, readMail } from '../../domain/mail/read.ts';
import { desksToPass, inTurn } from '../desks-in-turn.ts';

// One pass over every desk's mailbox, or one desk's: what `desk serve` runs every
// DESK_MAIL_POLL and `desk mail pass` runs once. A desk that fails is reported; the others
// still get their pass.

interface DeskNamed {
  desk_id: string;
  desk_slug: string;
}

export interface MailPassReport {
  desks: number;
  mailboxes: Array<MailboxPass & DeskNamed>;
  matched: Array<MatchedMail & DeskNamed>;
  failures: Array<DeskNamed & { error: string }>;
}

export const MAIL_ACTOR = { type: 'system', name: 'mail' } as const;

export async function runMailPass(deps: Deps, opts: { desk?: string } = {}): Promise<MailPassReport> {
  const desks = await desksToPass(deps, opts.desk);
  const report: MailPassReport = { desks: desks.length, mailboxes: [], matched: [], failures: [] };
  for await (const desk of inTurn(desks)) {
    try {
      const r = await readMail(deskContext(deps, desk, MAIL_ACTOR));
      const named = { desk_id: desk.id, desk_slug: desk.slug };
      report.mailboxes.push(...r.mailboxes.map((m) => ({ ...m, ...named })));
      report.matched.push(...r.matched.map((m) => ({ ...m, ...named })));
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      report.failures.push({ desk_id: desk.id, desk_slug: desk.slug, error });
    }
  }
  return report;
}
