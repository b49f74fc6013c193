import type { Command } from 'commander';
import { dbOption, jsonOption, print, Reported, withDeps, type DbOptions, type Io } from '../io.ts';
import { plural } from '../../domain/text.ts';

// `desk watches run`: one pass of the watch scheduler now, as the server does every interval.

export function watchCommands(program: Command, io: Io): void {
  const watches = program.command('watches').description('Turn watched dates into work');
  jsonOption(
    dbOption(
      watches
        .command('run')
        .description(
          'Check every watch now and open the rows that are due (the server also does this every DESK_WATCH_INTERVAL)',
        )
        .option('--desk <desk>', 'only this desk (id or slug)'),
    ),
  ).action(async (o: DbOptions & { desk?: string; json?: boolean }) => {
    const { runWatchPass } = await import('../../app/watches/pass.ts');
    await withDeps(io, o, async (deps) => {
      const r = await runWatchPass(deps, { desk: o.desk });
      print(io, o.json, r, () => {
        const lines = [`Checked ${plural(r.desks, 'desk')}: ${plural(r.created.length, 'new row')}.`];
        for (const c of r.created) lines.push(`  #${c.work_id} ${c.title} (due ${c.watch_date})`);
        return lines.join('\n');
      });
      if (r.failures.length > 0) {
        for (const f of r.failures) io.err(`desk: the watch pass failed for desk ${f.desk_id}: ${f.error}`);
        throw new Reported('watch pass failures');
      }
    });
  });
}
