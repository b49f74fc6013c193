import type { Command } from 'commander';
import { dateIn, dateOfInstant, FIRST_DAY, isBeforeFirstDay, isIsoDate, resolveDate } from '../../domain/dates.ts';
import { expiryAfter, lastDayOf } from '../../domain/keys/expiry.ts';
import { echoed } from '../../domain/text.ts';
import { checkedArgument, checkedOption, idOf, neededOption, type Rule, storedId, type TypedId } from '../checks.ts';
import { dbOption, deskByRef, jsonOption, print, table, withDeps, type DbOptions, type Io, inline } from '../io.ts';

/** YYYY-MM-DD or an offset such as +30d: read against the desk's own today once the desk is found. */
const expiry: Rule = (raw) => {
  const shape = resolveDate(raw, '2000-01-01');
  if (shape !== null && isIsoDate(shape)) return { value: raw };
  return isBeforeFirstDay(raw)
    ? { fault: `--expires "${echoed(raw)}" is before ${FIRST_DAY}, the first day the desk keeps.` }
    : { fault: `--expires "${echoed(raw)}" is not a date; use YYYY-MM-DD or +30d.` };
};

export function keyCommands(program: Command, io: Io): void {
  const keys = program.command('keys').description('Create, list and revoke API keys');

  jsonOption(
    dbOption(
      keys
        .command('create')
        .description('Create a key for a desk; it is shown once')
        .addOption(neededOption('--desk <desk>', 'desk id or slug'))
        .addOption(neededOption('--name <name>', 'who will hold it, e.g. zapier'))
        .addOption(
          checkedOption(
            '--expires <date>',
            "last day the key works (YYYY-MM-DD or +30d), in the desk's time zone",
            expiry,
          ),
        ),
    ),
  ).action(async (opts: DbOptions & { desk: string; name: string; expires?: string; json?: boolean }) => {
    const { createKey } = await import('../../domain/keys/create.ts');
    await withDeps(io, opts, async (deps) => {
      const desk = await deskByRef(deps, opts.desk);
      const now = deps.clock.now();
      let expiresAt: string | null = null;
      let last: string | null = null;
      if (opts.expires !== undefined) {
        last = resolveDate(opts.expires, dateIn(desk.timezone, now))!;
        expiresAt = expiryAfter(desk.timezone, last);
      }
      const k = await createKey(deps.store.db, {
        deskId: desk.id,
        name: opts.name,
        expiresAt,
        now: now.toISOString(),
        by: 'owner',
      });
      const data = {
        id: k.id,
        name: k.name,
        prefix: k.prefix,
        key: k.key,
        expires_at: k.expires_at,
        desk: { id: desk.id, slug: desk.slug },
      };
      print(io, opts.json, data, () =>
        [
          `Key "${inline(k.name)}" (id ${k.id}) for ${desk.slug}${last ? `, valid through ${last} (${desk.timezone})` : ''}. Shown once:`,
          `  ${k.key}`,
        ].join('\n'),
      );
    });
  });

  jsonOption(
    dbOption(
      keys
        .command('list')
        .description("List a desk's keys (never the keys themselves)")
        .addOption(neededOption('--desk <desk>', 'desk id or slug')),
    ),
  ).action(async (opts: DbOptions & { desk: string; json?: boolean }) => {
    const { listKeys } = await import('../../domain/keys/create.ts');
    await withDeps(io, opts, async (deps) => {
      const desk = await deskByRef(deps, opts.desk);
      const rows = (await listKeys(deps.store.db, desk.id)).map(({ desk_id: _d, ...k }) => k);
      // People read each date on the desk's calendar; the last day the key works as it was given.
      const shown = rows.map((k) => ({
        ...k,
        created: dateOfInstant(desk.timezone, k.created_at),
        last_day: k.expires_at ? lastDayOf(desk.timezone, k.expires_at) : null,
        revoked: k.revoked_at ? dateOfInstant(desk.timezone, k.revoked_at) : null,
      }));
      print(io, opts.json, rows, () => table(shown, ['id', 'name', 'prefix', 'created', 'last_day', 'revoked']));
    });
  });

  jsonOption(
    dbOption(
      keys
        .command('revoke')
        .description('Revoke a key; programs using it get 401 from then on')
        .addArgument(checkedArgument('<id>', 'the key id (from keys list)', idOf('key'))),
    ),
  ).action(async (typed: TypedId, opts: DbOptions & { json?: boolean }) => {
    const { noSuchKey, revokeKey } = await import('../../domain/keys/revoke.ts');
    await withDeps(io, opts, async (deps) => {
      const id = storedId(typed);
      if (id === null) throw noSuchKey(typed);
      const r = await revokeKey(deps.store.db, { keyId: id, now: deps.clock.now().toISOString(), by: 'owner' });
      print(io, opts.json, { id: r.id, prefix: r.prefix, revoked: true, already: r.already }, () =>
        r.already ? `Key ${r.id} (${r.prefix}…) was already revoked.` : `Revoked key ${r.id} (${r.prefix}…).`,
      );
    });
  });
}
