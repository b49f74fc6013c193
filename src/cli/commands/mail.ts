import type { Command } from 'commander';
import { dbOption, jsonOption, print, Reported, withDeps, type DbOptions, type Io, inline } from '../io.ts';
import { plural } from '../../domain/text.ts';

// `desk mail pass`: read the desks' mailboxes once now, as the server does every DESK_MAIL_POLL.

export function mailCommands(program: Command, io: Io): void {
  const mail = program.command('mail').description("Read replies from the desks' mailboxes");
  jsonOption(
    dbOption(
      mail
        .command('pass')
        .description(
          'Read every mailbox with an imap part once now and apply the replies it finds (the server also does this every DESK_MAIL_POLL)',
        )
        .option('--desk <desk>', 'only this desk (id or slug)'),
    ),
  ).action(async (o: DbOptions & { desk?: string; json?: boolean }) => {
    const { runMailPass } = await import('../../app/mail/pass.ts');
    await withDeps(io, o, async (deps) => {
      const r = await runMailPass(deps, { desk: o.desk });
      print(io, o.json, r, () => {
        if (r.mailboxes.length === 0)
          return r.failures.length > 0
            ? `Checked ${plural(r.desks, 'desk')}: the pass failed for ${plural(r.failures.length, 'desk')}.`
            : `Checked ${plural(r.desks, 'desk')}: no mailbox has an imap part to read.`;
        // A mailbox that could not be opened at all was tried, not read.
        const unread = r.mailboxes.filter((m) => !m.reached).length;
        const read = r.mailboxes.length - unread;
        const lines = [
          `Read ${plural(read, 'mailbox', 'mailboxes')}${unread > 0 ? ` (${unread} more could not be read)` : ''}: ${plural(r.matched.length, 'answer')} matched.`,
        ];
        for (const m of r.mailboxes) {
          const counts = [
            plural(m.read, 'message'),
            plural(m.replies, 'reply', 'replies'),
            plural(m.auto_replies, 'automatic answer'),
            plural(m.bounces, 'bounce'),
            `${m.unrelated} unrelated`,
            `${m.unparseable} unreadable`,
            `${m.already_handled} already handled`,
            ...(m.passed_over > 0
              ? [
                  `${m.passed_over} passed over (which, and why, is in the desk's log: the screen's Record, or GET /events)`,
                ]
              : []),
          ];
          const where = `${m.desk_slug}, ${inline(m.name)}`;
          if (!m.reached) lines.push(`  ${where}: could not be read: ${m.error}`);
          else if (m.error) lines.push(`  ${where}: ${counts.join(', ')}; then reading stopped: ${m.error}`);
          else if (m.more)
            lines.push(`  ${where}: ${counts.join(', ')}; more messages wait, and the next pass reads on`);
          else lines.push(`  ${where}: ${counts.join(', ')}`);
        }
        for (const x of r.matched)
          lines.push(`  ${x.desk_slug} #${x.work_id} ${x.kind.replace('_', ' ')} from ${x.from}: ${x.subject}`);
        return lines.join('\n');
      });
      const faults = r.mailboxes.filter((m) => m.error);
      for (const f of r.failures) io.err(`desk: the mail pass failed for desk ${f.desk_slug}: ${f.error}`);
      if (r.failures.length > 0 || faults.length > 0) throw new Reported('mail pass failures');
    });
  });
}
