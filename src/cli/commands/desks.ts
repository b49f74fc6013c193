import type { Command } from 'commander';
import { deleteDesk, listDesks, requireDesk } from '../../domain/desks/manage.ts';
import { dbOption, jsonOption, print, table, UsageError, withDeps, type DbOptions, type Io } from '../io.ts';

export function deskCommands(program: Command, io: Io): void {
  const desks = program.command('desks').description('List or delete desks');

  jsonOption(dbOption(desks.command('list').description('List every desk in the database'))).action(
    async (opts: DbOptions & { json?: boolean }) => {
      await withDeps(io, opts, async (deps) => {
        const rows = await listDesks(deps.store.db);
        const data = rows.map((d) => ({
          id: d.id,
          slug: d.slug,
          name: d.name,
          plan: d.plan,
          status: d.status,
          timezone: d.timezone,
          currency: d.currency,
          open_work: d.open_count,
        }));
        print(io, opts.json, data, () => table(data, ['id', 'slug', 'name', 'timezone', 'open_work']));
      });
    },
  );

  jsonOption(
    dbOption(
      desks
        .command('delete')
        .description('Delete a desk and everything on it; programs holding its keys are then told 403 no_desk')
        .argument('<desk>', 'desk id or slug')
        .option('--yes', 'delete without asking (for scripts)'),
    ),
  ).action(async (ref: string, opts: DbOptions & { yes?: boolean; json?: boolean }) => {
    await withDeps(io, opts, async (deps) => {
      const desk = await requireDesk(deps.store.db, ref);
      await confirmDelete(io, desk.slug, opts.yes === true);
      const d = await deleteDesk(deps.store.db, ref);
      print(
        io,
        opts.json,
        { deleted: { id: d.id, slug: d.slug } },
        () => `Deleted desk ${d.slug} (${d.id}) and everything on it.`,
      );
    });
  });
}

/** Deleting cannot be undone: a person confirms at the terminal, a script says --yes. */
async function confirmDelete(io: Io, slug: string, yes: boolean): Promise<void> {
  if (yes) return;
  if (!io.interactive || !io.ask)
    throw new UsageError(
      `desks delete ${slug} needs --yes when not run at a terminal; it deletes the desk and everything on it.`,
    );
  if (!(await io.ask(`Delete desk ${slug} and everything on it? This cannot be undone.`)))
    throw new UsageError(`Kept desk ${slug}; nothing was deleted.`);
}
