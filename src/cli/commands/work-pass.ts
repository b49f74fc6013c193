import type { Command } from 'commander';
import { actsDone, type DeskPass } from '../../domain/work/pass.ts';
import { plural } from '../../domain/text.ts';
import { dbOption, jsonOption, print, Reported, stoppable, withDeps, type DbOptions, type Io } from '../io.ts';

// `desk work pass`: one pass of the desk over its own list now, as the server does every DESK_WORK_INTERVAL.

/** Why a desk's pass ended; `acted` says whether it had done anything before it did. */
const WHY: Record<Exclude<DeskPass['state'], 'acted'>, (slug: string, acted: boolean) => string> = {
  paused: (slug, acted) =>
    `${acted ? 'then paused, so it did no more' : 'paused; nothing done on its own'} (resume with: desk desks resume ${slug})`,
  outside_hours: (_slug, acted) =>
    acted ? 'then its working hours ended, so it did no more' : 'outside its working hours; nothing done on its own',
  cap_reached: () => 'reached its daily cap of acts on its own',
  gone: () => 'deleted during the pass; skipped',
  stopped: () => 'stopped with the process; the next pass goes on',
  mailbox_down: () => 'its mail server did not confirm a send, so no more rows were tried; the next pass tries again',
};

/** What one desk's pass did, as the command prints it: a line for the desk, one for each act. */
export function deskPassLines(d: DeskPass): string[] {
  const done = actsDone(d);
  const failed = done.filter((a) => !a.ok).length;
  const head = `${d.slug}: ${plural(done.length, 'act')}${failed > 0 ? `, ${failed} of them failed` : ''}`;
  const lines = [d.state === 'acted' ? `${head}.` : `${head}; ${WHY[d.state](d.slug, done.length > 0)}.`];
  for (const a of d.acts)
    lines.push(
      a.put_back
        ? `  #${a.work_id} not sent: the mail server did not take the message, so the row is as it was.`
        : `  #${a.work_id} ${a.as === 'chase' ? 'chased' : 'ran'}: ${a.outcome}`,
    );
  for (const f of d.faults) lines.push(`  #${f.work_id} failed at the desk end: ${f.error}`);
  return lines;
}

export function workPassCommand(work: Command, io: Io): void {
  jsonOption(
    dbOption(
      work
        .command('pass')
        .description(
          'Let each desk work its list on its own now, within its rails (the server also does this every DESK_WORK_INTERVAL)',
        )
        .option('--desk <desk>', 'only this desk (id or slug)'),
    ),
  ).action(async (o: DbOptions & { desk?: string; json?: boolean }) => {
    const { runWorkPass } = await import('../../app/work/pass.ts');
    await withDeps(io, o, async (deps) => {
      // Ctrl-C stops the pass after the act in hand; its answer is printed before the command
      // stops (P-cli-10), so the printing is inside.
      await stoppable(io, deps, async (stopping) => {
        const r = await runWorkPass(deps, { desk: o.desk, stopping });
        print(io, o.json, r, () => {
          const lines: string[] = [];
          for (const d of r.desks) lines.push(...deskPassLines(d));
          return lines.join('\n') || 'No desks.';
        });
        for (const f of r.failures) io.err(`desk: the work pass failed for desk ${f.desk_id}: ${f.error}`);
        // As `desk run` does: an act that did not succeed (a refused send, a failed filing) is exit 1.
        // So is a send put back (P-pass-12): it is no act of the desk's, but what the pass was
        // asked to do did not get done, and a script must be able to tell.
        const failedActs = r.desks.flatMap((d) => actsDone(d).filter((a) => !a.ok));
        const putBack = r.desks.flatMap((d) => d.acts.filter((a) => a.put_back));
        const faults = r.desks.flatMap((d) => d.faults);
        if (failedActs.length > 0 || putBack.length > 0 || faults.length > 0) {
          const what = [
            ...(failedActs.length > 0 ? [`${plural(failedActs.length, 'act')} did not succeed`] : []),
            ...(putBack.length > 0
              ? [
                  `${plural(putBack.length, 'send')} the mail server did not take ${putBack.length === 1 ? 'was' : 'were'} put back for the next pass`,
                ]
              : []),
            ...(faults.length > 0 ? [`${plural(faults.length, 'act')} failed at the desk end`] : []),
          ];
          io.err(`desk: ${what.join(', and ')}; see each row above.`);
        }
        if (r.failures.length > 0 || failedActs.length > 0 || putBack.length > 0 || faults.length > 0)
          throw new Reported('work pass failures');
      });
    });
  });
}
