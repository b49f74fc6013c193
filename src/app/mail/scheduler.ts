import type { Deps } from '../../domain/context.ts';
import { plural } from '../../domain/text.ts';
import { consoleLog, repeat, type SchedulerLog } from '../repeat.ts';
import { type MailPassReport, runMailPass } from './pass.ts';

// Reads the desks' mailboxes inside the server: a pass at start, then one DESK_MAIL_POLL after
// each pass ends, so passes never overlap in one process (other processes are kept apart by
// the unique record of each message). A poll rather than IDLE (P-mail-6). The timer does not
// keep the process alive, and stopping waits for a pass in flight.

export interface MailSchedulerOptions {
  intervalMs?: number;
  log?: SchedulerLog;
  onPass?: (report: MailPassReport) => void;
  /** The pass to run (runMailPass unless given). */
  pass?: () => Promise<MailPassReport>;
}

export function startMailScheduler(deps: Deps, opts: MailSchedulerOptions = {}): () => Promise<void> {
  const intervalMs = opts.intervalMs ?? deps.config.mailPollMs;
  const log = opts.log ?? consoleLog;
  return repeat(intervalMs, async () => {
    try {
      const r = await (opts.pass ?? (() => runMailPass(deps)))();
      if (r.matched.length > 0)
        log.info({ matched: r.matched.length }, `Mail: ${plural(r.matched.length, 'answer')} read.`);
      for (const m of r.mailboxes) {
        const named = { desk_id: m.desk_id, desk_slug: m.desk_slug, connection_id: m.connection_id };
        // A fault is told when it starts or changes, and its end once: a wrong password left for
        // a week was an error line every poll. The desk's Mailbox section shows it meanwhile.
        if (m.error && (m.error !== m.error_before || m.read > 0))
          log.error(
            { ...named, error: m.error, read: m.read },
            m.read > 0 ? 'A mailbox could not be read to the end.' : 'A mailbox could not be read.',
          );
        else if (!m.error && m.error_before) log.info(named, 'A mailbox can be read again.');
      }
      for (const f of r.failures)
        log.error({ desk_id: f.desk_id, desk_slug: f.desk_slug, error: f.error }, 'The mail pass failed for a desk.');
      opts.onPass?.(r);
      // A backlog is read pass after pass without waiting out the poll between them.
      if (r.mailboxes.some((m) => m.more)) return 'again';
    } catch (err) {
      log.error({ err }, 'The mail pass failed; the next one runs on schedule.');
    }
    return undefined;
  });
}
