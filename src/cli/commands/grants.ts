import type { Command } from 'commander';
import { PERMISSION_CLASSES, UNGRANTABLE } from '../../domain/vocab.ts';
import { neededOption } from '../checks.ts';
import { dbOption, deskByRef, jsonOption, print, withDeps, type DbOptions, type Io } from '../io.ts';

// What may be granted is the domain's list; the help reads it, so it never offers a class that
// setGrant would refuse.
const GRANTABLE = PERMISSION_CLASSES.filter((c) => !UNGRANTABLE.includes(c));
const NEVER = `${UNGRANTABLE.join(' and ')} can never be granted`;

export function grantCommands(program: Command, io: Io): void {
  const grants = program
    .command('grants')
    .description(
      `Let the desk act on its own for a class of work (${GRANTABLE.slice(0, -1).join(', ')} or ${GRANTABLE.at(-1)}); ${NEVER}: they always need a person`,
    );

  for (const [name, granted] of [
    ['set', true],
    ['unset', false],
  ] as const) {
    jsonOption(
      dbOption(
        grants
          .command(name)
          .description(
            granted
              ? 'Grant a class: the desk may do that work without asking'
              : 'Withdraw a class: the desk asks again',
          )
          .addOption(neededOption('--desk <desk>', 'desk id or slug'))
          .argument('<class>', `${GRANTABLE.join(' | ')} (${NEVER})`),
      ),
    ).action(async (cls: string, opts: DbOptions & { desk: string; json?: boolean }) => {
      const { setGrant } = await import('../../domain/grants/manage.ts');
      const { grantsOf } = await import('../../store/repositories/desks.ts');
      await withDeps(io, opts, async (deps) => {
        const desk = await deskByRef(deps, opts.desk);
        const changed = await setGrant(deps.store.db, {
          deskId: desk.id,
          cls,
          granted,
          now: deps.clock.now().toISOString(),
          by: 'owner',
        });
        const now = [...(await grantsOf(deps.store.db, desk.id))].sort();
        print(
          io,
          opts.json,
          { desk: desk.slug, class: cls, granted, changed, grants: now },
          () =>
            `${changed ? (granted ? 'Granted' : 'Withdrew') : granted ? 'Already granted:' : 'Was not granted:'} ${cls} on ${desk.slug}. Granted now: ${now.join(', ') || 'nothing'}.`,
        );
      });
    });
  }

  jsonOption(
    dbOption(
      grants
        .command('list')
        .description('Show what a desk may do without asking')
        .addOption(neededOption('--desk <desk>', 'desk id or slug')),
    ),
  ).action(async (opts: DbOptions & { desk: string; json?: boolean }) => {
    const { grantsOf } = await import('../../store/repositories/desks.ts');
    await withDeps(io, opts, async (deps) => {
      const desk = await deskByRef(deps, opts.desk);
      const now = [...(await grantsOf(deps.store.db, desk.id))].sort();
      print(
        io,
        opts.json,
        { desk: desk.slug, grants: now },
        () => `${desk.slug} may act without asking on: ${now.join(', ') || 'nothing yet'}.`,
      );
    });
  });
}
