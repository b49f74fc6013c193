import type { Command } from 'commander';
import { deleteDesk, listDesks } from '../../domain/desks/manage.ts';
import { dbOption, jsonOption, print, table, withDeps, type DbOptions, type Io } from '../io.ts';

export function deskCommands(program: Command, io: Io): void {
  const desks = program.command('desks').description('List or delete desks');

  jsonOption(dbOption(desks.command('list').description('List every desk in the database'))).action(async (opts: DbOptions & { json?: boolean }) => {
    await withDeps(io, opts, async (deps) => {
      const rows = await listDesks(deps.store.db);
      const data = rows.map((d) => ({ id: d.id, slug: d.slug, name: d.name, plan: d.plan, status: d.status, timezone: d.timezone, currency: d.currency, open_work: d.open_count }));
      print(io, opts.json, data, () => table(data, ['id', 'slug', 'name', 'timezone', 'open_work']));
    });
  });

  jsonOption(
    dbOption(
      desks
        .command('delete')
        .description('Delete a desk and everything on it; programs holding its keys are then told 403 no_desk')
        .argument('<desk>', 'desk id or slug'),
    ),
  ).action(async (ref: string, opts: DbOptions & { json?: boolean }) => {
    await withDeps(io, opts, async (deps) => {
      const d = await deleteDesk(deps.store.db, ref);
      print(io, opts.json, { deleted: { id: d.id, slug: d.slug } }, () => `Deleted desk ${d.slug} (${d.id}) and everything on it.`);
    });
  });
}
