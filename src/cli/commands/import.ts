import { isUtf8 } from 'node:buffer';
import type { Command } from 'commander';
import { DEFAULT_PORT, serveCommand } from '../../config.ts';
import { readWhole } from '../read-file.ts';
import { clockFor } from '../../domain/clock.ts';
import { DeskError } from '../../domain/errors.ts';
import { isSlug, slugFault } from '../../domain/desks/slug.ts';
import { plural } from '../../domain/text.ts';
import { checkedOption, portNumber } from '../checks.ts';
import { keyNameFault } from '../../domain/keys/create.ts';
import {
  configFor,
  dbOption,
  jsonOption,
  Listed,
  print,
  withNewDeps,
  UsageError,
  type DbOptions,
  type Io,
  inline,
} from '../io.ts';

export function curlLine(key: string, port = DEFAULT_PORT, host = '127.0.0.1'): string {
  // Port 0 is any free port `desk serve` picks: the line says where the port goes.
  return `curl -s -H "Authorization: Bearer ${key}" http://${host}:${port === 0 ? 'PORT' : port}/api/v1/me`;
}

/** A file with one mistake: its summary would run on into it, so it is listed under the summary as several are. */
function listedMistakes(err: unknown): unknown {
  if (!(err instanceof DeskError)) return err;
  const errors = err.details?.errors;
  return Array.isArray(errors) && errors.length === 1 && err.message.endsWith(String(errors[0]))
    ? new Listed(err.code, err.message, err.details)
    : err;
}

export function importCommands(program: Command, io: Io): void {
  const imp = program
    .command('import')
    .description('Read a business file (YAML or JSON) into a new desk; all or nothing')
    .argument('<file>', 'the business file (see docs/business-file.md); - reads standard input')
    .addOption(
      checkedOption(
        '--key <name>',
        'also create an API key with this name and print it (shown once)',
        // Said before the file is read, not after every row of it was written and undone.
        (raw) => {
          if (raw.trim() === '') return { fault: '--key needs a name, such as --key zapier.' };
          const fault = keyNameFault(raw);
          return fault ? { fault: `--key: ${fault}` } : { value: raw };
        },
      ),
    )
    .addOption(
      checkedOption(
        '--slug <slug>',
        "make the desk under this slug instead of the file's (a copy of an exported desk)",
        // Said of the flag typed, not of the file it stands in for.
        (raw) => (isSlug(raw) ? { value: raw } : { fault: `--slug: ${slugFault(raw)}.` }),
      ),
    )
    .addOption(
      checkedOption(
        '--port <port>',
        'the port the server listens on, for the printed curl line (default DESK_PORT or 8080)',
        portNumber(),
      ),
    );
  jsonOption(dbOption(imp)).action(
    async (file: string, opts: DbOptions & { key?: string; slug?: string; port?: number; json?: boolean }) => {
      // The import is one transaction: stopped, the database keeps none of it. Said, not left to
      // guess, from the start: a stop while a large file is still being read says so too.
      const onSignal = () => {
        io.err('Stopped: nothing was imported; a business file goes in whole or not at all.');
        process.exit(130);
      };
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      const settled = () => {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      };
      try {
        await importFile(file, opts, settled);
      } finally {
        settled();
      }
    },
  );
  async function importFile(
    file: string,
    opts: DbOptions & { key?: string; slug?: string; port?: number; json?: boolean },
    settled: () => void,
  ): Promise<void> {
    // `-` is standard input, as `desk export --desk X -` writes to standard output.
    const bytes = await readWhole(file);
    // Read as anything else, a Latin-1 "café" would be kept as "caf\uFFFD" (P-bodies-3).
    if (!isUtf8(bytes))
      throw new UsageError(
        `${file === '-' ? 'Standard input' : file} is not UTF-8 text; save it as UTF-8 and import it again.`,
      );
    const text = bytes.toString('utf8');
    // The file is read and checked before the database is opened: a file with mistakes
    // leaves no new database behind.
    const { planFromText } = await import('../../domain/business/read.ts');
    const { importBusiness, PROGRESS_FROM } = await import('../../domain/business/import.ts');
    const now = clockFor(configFor(io, opts).startsAt).now();
    let plan: ReturnType<typeof planFromText>;
    try {
      plan = planFromText(text, {
        now,
        source: file === '-' ? 'standard input' : file,
        ...(opts.slug !== undefined ? { slug: opts.slug } : {}),
      });
    } catch (err) {
      throw listedMistakes(err);
    }
    if (plan.work.length >= PROGRESS_FROM)
      io.err(
        `Importing ${plan.work.length.toLocaleString('en-GB')} work items in one transaction: all of them are kept, or none.`,
      );
    await withNewDeps(io, opts, async (deps) => {
      const r = await importBusiness(deps.store.db, plan, {
        now: deps.clock.now(),
        keyName: opts.key,
        // A long import says how far it has come; nothing is kept until the whole file is in.
        progress: (done, total) =>
          io.err(`Importing: ${done.toLocaleString('en-GB')} of ${total.toLocaleString('en-GB')} work items written…`),
      })
        .catch((err: unknown) => {
          // A slug already taken: say how to bring the file in anyway.
          if (err instanceof DeskError && err.details?.field === 'slug')
            throw new DeskError(
              err.code,
              `${err.message} \`desk import FILE --slug NEW-SLUG\` imports the file under another slug.`,
              err.details,
            );
          throw err;
        })
        .finally(
          // Committed (or refused): from here a stop loses nothing the message would deny.
          settled,
        );
      const data = {
        desk: { id: r.desk.id, slug: r.desk.slug },
        key: r.key ? { id: r.key.id, prefix: r.key.prefix, key: r.key.key } : null,
        refs: r.refs,
      };
      print(io, opts.json, data, () => {
        const c = r.counts;
        const lines = [
          `Imported "${inline(r.desk.name)}" as desk ${r.desk.slug} (${r.desk.id}): ${[plural(c.work, 'work item'), plural(c.arrangements, 'arrangement'), plural(c.units, 'unit'), plural(c.watches, 'watch', 'watches'), plural(c.domains, 'domain'), plural(c.connections, 'connection')].join(', ')}.`,
        ];
        if (r.key)
          lines.push(
            `Key "${inline(r.key.name)}" (id ${r.key.id}), shown once:`,
            `  ${r.key.key}`,
            `Try it: ${curlLine(r.key.key, deps.config.port, deps.config.host)}`,
          );
        const refs = Object.entries(r.refs);
        if (refs.length) lines.push(`Refs: ${refs.map(([k, v]) => `${k}=${v}`).join(', ')}`);
        return lines.join('\n');
      });
    });
  }

  const demo = program
    .command('demo')
    .description('Bring in the bundled demo business (a bakery with work in every state) and print a key for it')
    .option('--key <name>', 'name for the key', 'demo')
    .addOption(
      checkedOption(
        '--port <port>',
        'the port the server listens on, for the printed curl line (default DESK_PORT or 8080)',
        portNumber(),
      ),
    );
  jsonOption(dbOption(demo)).action(async (opts: DbOptions & { key: string; port?: number; json?: boolean }) => {
    const port = opts.port;
    const { importDemo } = await import('../../domain/business/demo.ts');
    await withNewDeps(io, { db: opts.db, ...(port !== undefined ? { port } : {}) } as DbOptions, async (deps) => {
      const r = await importDemo(deps.store.db, { now: deps.clock.now(), keyName: opts.key });
      const data = {
        desk: { id: r.desk.id, slug: r.desk.slug },
        key: { id: r.key.id, prefix: r.key.prefix, key: r.key.key },
        created: r.created,
        refs: r.refs,
      };
      print(io, opts.json, data, () =>
        [
          r.created
            ? `Demo desk "${inline(r.desk.name)}" created (${r.desk.slug}).`
            : `The demo desk "${inline(r.desk.name)}" already exists; here is a new key for it.`,
          `Key "${inline(r.key.name)}" (id ${r.key.id}), shown once:`,
          `  ${r.key.key}`,
          `With the server running (${serveCommand(deps.config)}): ${curlLine(r.key.key, deps.config.port, deps.config.host)}`,
        ].join('\n'),
      );
    });
  });
}
