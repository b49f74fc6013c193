import type { Command } from 'commander';
import { dbOption, jsonOption, print, Reported, withDeps, type DbOptions, type Io, inline } from '../io.ts';
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
    const { listDesks } = await import('../../domain/desks/manage.ts');
    await withDeps(io, o, async (deps) => {
      const r = await runWatchPass(deps, { desk: o.desk });
      // A pass over every desk opens rows on several: each is named by the slug the owner types.
      const slugs = new Map((await listDesks(deps.store.db)).map((d) => [d.id, d.slug]));
      const slug = (id: string) => slugs.get(id) ?? id;
      const data = {
        ...r,
        created: r.created.map((c) => ({ desk: slug(c.desk_id), ...c })),
        failures: r.failures.map((f) => ({ desk: slug(f.desk_id), ...f })),
      };
      print(io, o.json, data, () => {
        const lines = [`Checked ${plural(r.desks, 'desk')}: ${plural(r.created.length, 'new row')}.`];
        for (const c of data.created) lines.push(`  ${c.desk} #${c.work_id} ${inline(c.title)} (due ${c.watch_date})`);
        return lines.join('\n');
      });
      if (data.failures.length > 0) {
        for (const f of data.failures) io.err(`desk: the watch pass failed for desk ${f.desk}: ${f.error}`);
        throw new Reported('watch pass failures');
      }
    });
  });
}
