import type { Command } from 'commander';
import type { DeskPass } from '../../domain/work/pass.ts';
import { plural } from '../../domain/text.ts';
import { dbOption, jsonOption, print, Reported, withDeps, type DbOptions, type Io } from '../io.ts';

// `desk work pass`: one pass of the desk over its own list now, as the server does every DESK_WORK_INTERVAL.

const WHY: Record<Exclude<DeskPass['state'], 'acted'>, (slug: string) => string> = {
  paused: (slug) => `paused; nothing done on its own (resume with: desk desks resume ${slug})`,
  outside_hours: () => 'outside its working hours; nothing done on its own',
  cap_reached: () => 'reached its daily cap of acts on its own',
  gone: () => 'deleted during the pass; skipped',
};

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
      const r = await runWorkPass(deps, { desk: o.desk });
      print(io, o.json, r, () => {
        const lines: string[] = [];
        for (const d of r.desks) {
          const head = `${d.slug}: ${plural(d.acts.length, 'act')}`;
          lines.push(d.state === 'acted' ? `${head}.` : `${head}; ${WHY[d.state](d.slug)}.`);
          for (const a of d.acts) lines.push(`  #${a.work_id} ${a.as === 'chase' ? 'chased' : 'ran'}: ${a.outcome}`);
          for (const f of d.faults) lines.push(`  #${f.work_id} failed at the desk end: ${f.error}`);
        }
        return lines.join('\n') || 'No desks.';
      });
      if (r.failures.length > 0) {
        for (const f of r.failures) io.err(`desk: the work pass failed for desk ${f.desk_id}: ${f.error}`);
        throw new Reported('work pass failures');
      }
    });
  });
}
