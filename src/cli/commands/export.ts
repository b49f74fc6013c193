import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { neededOption } from '../checks.ts';
import { dbOption, fileFault, ownerContext, print, withDeps, type DbOptions, type Io } from '../io.ts';

export function exportCommand(program: Command, io: Io): void {
  dbOption(
    program
      .command('export')
      .description(
        'Write a desk out as a business file (YAML, or JSON with --json) that `desk import` reads back; no secrets, no keys',
      )
      .addOption(neededOption('--desk <desk>', 'desk id or slug'))
      .argument('[file]', 'where to write it (default: print it); a name ending in .json gets JSON')
      .option('--json', 'write the business file as JSON; with FILE, print what was written as JSON too')
      .addHelpText(
        'after',
        '\nConnection passwords and other secrets are left out (a comment at the top of the file names them),\nand API keys are never part of the file. Dates are written as they stand today.\nJSON has no comments: written to FILE, the secrets left out are named on the terminal instead.\n`desk import` reads a file named .json as JSON, strictly, and far faster than YAML.\n\nExample:\n  desk export --desk corner-bakery corner-bakery.yaml\n  desk import corner-bakery.yaml --slug corner-bakery-copy\n  desk export --desk corner-bakery --json > corner-bakery.json',
      ),
  ).action(async (file: string | undefined, opts: DbOptions & { desk: string; json?: boolean }) => {
    const toFile = file !== undefined && file !== '-';
    // A file named .json must hold JSON: that is how `desk import` will read it.
    const format = opts.json || (toFile && /\.json$/i.test(file)) ? 'json' : 'yaml';
    const { exportDesk } = await import('../../domain/business/export.ts');
    await withDeps(io, opts, async (deps) => {
      const ctx = await ownerContext(deps, opts.desk);
      const { secretsLeftOut } = await exportDesk(ctx, format, (text) => {
        if (!toFile) return io.out(text);
        try {
          writeFileSync(file, text, 'utf8');
        } catch (err) {
          throw fileFault(file, err, 'write');
        }
      });
      if (!toFile) return;
      const data = { desk: ctx.desk.slug, file, format, secrets_left_out: secretsLeftOut };
      print(io, opts.json, data, () =>
        format === 'json' && secretsLeftOut.length > 0
          ? `Wrote the business file of ${ctx.desk.slug} to ${file}, as JSON. Secrets were left out: ${secretsLeftOut.join('; ')}. Enter them again on the desk after importing.`
          : `Wrote the business file of ${ctx.desk.slug} to ${file}${format === 'json' ? ', as JSON' : ''}.`,
      );
    });
  });
}
