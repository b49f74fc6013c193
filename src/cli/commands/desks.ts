import { plural } from '../../domain/text.ts';
import type { Command } from 'commander';
import { dbFlag, publicOrigin } from '../../config.ts';
import type { Rails } from '../../domain/desks/rails.ts';
import { LINK_MINUTES, signInUrl } from '../../domain/owner/link-url.ts';
import type { Deps } from '../../domain/context.ts';
import { checkedOption, neededOption, portNumber } from '../checks.ts';
import {
  dbOption,
  deskByRef,
  ownerContext,
  jsonOption,
  print,
  table,
  UsageError,
  withDeps,
  withNewDeps,
  type DbOptions,
  type Io,
  inline,
} from '../io.ts';
import { asFlags } from '../flags.ts';

interface CreateOptions extends DbOptions {
  slug: string;
  timezone: string;
  currency: string;
  link?: boolean;
  port?: number;
  json?: boolean;
}

/** A count as typed: a number when it is one exactly, else the text, which the rails refuse as typed. */
function count(raw: string): number | string {
  return /^-?\d+$/.test(raw.trim()) && Number.isSafeInteger(Number(raw)) ? Number(raw) : raw;
}

function railsLine(slug: string, r: Rails): string {
  const state = r.paused
    ? `paused: it does nothing on its own (resume with: desk desks resume ${slug})`
    : 'working on its own';
  return `${slug} is ${state}. Hours: ${r.hours}; daily cap: ${r.daily_cap}; acts up to ${plural(r.act_within_days, 'day')} ahead.`;
}

/** Sets the rails given and prints where they all stand. */
async function changeRails(
  io: Io,
  deps: Deps,
  ref: string,
  input: Partial<Rails>,
  json: boolean | undefined,
): Promise<void> {
  const { setRails } = await import('../../domain/desks/rails.ts');
  const ctx = await ownerContext(deps, ref);
  const desk = ctx.desk;
  const r = await asFlags(() => setRails(ctx, input));
  print(io, json, { slug: desk.slug, ...r }, () => railsLine(desk.slug, r));
}

export function deskCommands(program: Command, io: Io): void {
  const desks = program.command('desks').description('Create, list, set the rails of, pause, resume or delete desks');

  jsonOption(
    dbOption(
      desks
        .command('create')
        .description('Make an empty desk, to be set up from its screen')
        .argument('<name>', "the business's name, as the screen shows it")
        .addOption(neededOption('--slug <slug>', 'short name for commands: lower-case letters, digits and dashes'))
        .addOption(neededOption('--timezone <zone>', 'IANA time zone its days are counted in, such as Europe/London'))
        .addOption(neededOption('--currency <code>', 'three-letter currency code, such as GBP'))
        .option('--link', `also print a one-time sign-in link for its screen (valid ${LINK_MINUTES} minutes)`)
        .addOption(
          checkedOption(
            '--port <port>',
            'the port the server listens on, for the link (default DESK_PORT or 8080; DESK_PUBLIC_URL wins)',
            portNumber(),
          ),
        ),
    ),
  ).action(async (name: string, opts: CreateOptions) => {
    const port = opts.port;
    const { createEmptyDesk } = await import('../../domain/desks/create.ts');
    const { createSignInLink } = await import('../../domain/owner/sign-in.ts');
    await withNewDeps(io, { db: opts.db, ...(port !== undefined ? { port } : {}) } as DbOptions, async (deps) => {
      const now = deps.clock.now();
      // Where the link points is known before the desk is made: one that cannot be named makes nothing.
      const origin = opts.link ? publicOrigin(deps.config) : null;
      const d = await createEmptyDesk(
        deps.store.db,
        { name, slug: opts.slug, timezone: opts.timezone, currency: opts.currency },
        { now: now.toISOString(), by: 'owner' },
      );
      const url = origin ? signInUrl(origin, (await createSignInLink(deps.store.db, d.id, now)).token) : null;
      const data = { id: d.id, slug: d.slug, name: d.name, timezone: d.timezone, currency: d.currency };
      print(io, opts.json, url ? { desk: data, url } : { desk: data }, () =>
        [
          `Created desk ${d.slug} (${d.id}): ${inline(d.name)}, ${d.timezone}, ${d.currency}. It is empty.`,
          url
            ? `Open this in a browser to sign in to ${d.slug} (once, within ${LINK_MINUTES} minutes):\n  ${url}`
            : `\`npx desk owner link --desk ${d.slug}${dbFlag(deps.config)}\` prints a sign-in link for its screen.`,
        ].join('\n'),
      );
    });
  });

  jsonOption(dbOption(desks.command('list').description('List every desk in the database'))).action(
    async (opts: DbOptions & { json?: boolean }) => {
      const { listDesks } = await import('../../domain/desks/manage.ts');
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
          paused: !!d.paused,
          hours: d.hours,
          daily_cap: d.daily_cap,
          act_within_days: d.act_within_days,
        }));
        const shown = data.map((d) => ({
          ...d,
          on_its_own: d.paused ? `paused (desk desks resume ${d.slug})` : `working, ${d.hours}`,
        }));
        print(io, opts.json, data, () => table(shown, ['id', 'slug', 'name', 'timezone', 'open_work', 'on_its_own']));
      });
    },
  );

  jsonOption(
    dbOption(
      desks
        .command('set')
        .description('Set the rails on what the desk does on its own; a bad value changes nothing')
        .argument('<desk>', 'desk id or slug')
        .option('--hours <hours>', 'working hours in the desk\'s timezone, e.g. "mon-fri 09:00-17:00" or "always"')
        .option('--daily-cap <n>', 'acts the desk may do on its own in a day (0-1000)')
        .option('--act-within-days <n>', 'how many days ahead of a due date it acts (0-365)'),
    ),
  ).action(
    async (
      ref: string,
      opts: DbOptions & { hours?: string; dailyCap?: string; actWithinDays?: string; json?: boolean },
    ) => {
      const input: Record<string, unknown> = {};
      if (opts.hours !== undefined) input.hours = opts.hours;
      if (opts.dailyCap !== undefined) input.daily_cap = count(opts.dailyCap);
      if (opts.actWithinDays !== undefined) input.act_within_days = count(opts.actWithinDays);
      if (Object.keys(input).length === 0)
        throw new UsageError('desks set needs at least one of --hours, --daily-cap, --act-within-days.');
      await withDeps(io, opts, (deps) => changeRails(io, deps, ref, input as Partial<Rails>, opts.json));
    },
  );

  for (const [verb, paused] of [
    ['pause', true],
    ['resume', false],
  ] as const) {
    jsonOption(
      dbOption(
        desks
          .command(verb)
          .description(
            paused
              ? 'Pause everything the desk does on its own; the API and the owner can still act'
              : 'Let the desk work its list on its own again, within its rails',
          )
          .argument('<desk>', 'desk id or slug'),
      ),
    ).action(async (ref: string, opts: DbOptions & { json?: boolean }) => {
      await withDeps(io, opts, (deps) => changeRails(io, deps, ref, { paused }, opts.json));
    });
  }

  jsonOption(
    dbOption(
      desks
        .command('delete')
        .description('Delete a desk and everything on it; programs holding its keys are then told 403 no_desk')
        .argument('<desk>', 'desk id or slug')
        .option('--yes', 'delete without asking (for scripts)'),
    ),
  ).action(async (ref: string, opts: DbOptions & { yes?: boolean; json?: boolean }) => {
    const { deleteDesk } = await import('../../domain/desks/manage.ts');
    await withDeps(io, opts, async (deps) => {
      const desk = await deskByRef(deps, ref);
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
