import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { dbOption, ownerContext, UsageError, withDeps, type DbOptions, type Io } from '../io.ts';

export function exportCommand(program: Command, io: Io): void {
  dbOption(
    program
      .command('export')
      .description('Write a desk out as a business file (YAML) that `desk import` reads back; no secrets, no keys')
      .requiredOption('--desk <desk>', 'desk id or slug')
      .argument('[file]', 'where to write it (default: print it)')
      .addHelpText(
        'after',
        '\nConnection passwords and other secrets are left out (a comment at the top of the file names them),\nand API keys are never part of the file. Dates are written as they stand today.\n\nExample:\n  desk export --desk corner-bakery corner-bakery.yaml\n  desk import corner-bakery.yaml --slug corner-bakery-copy',
      ),
  ).action(async (file: string | undefined, opts: DbOptions & { desk: string }) => {
    const { exportDesk } = await import('../../domain/business/export.ts');
    await withDeps(io, opts, async (deps) => {
      const ctx = await ownerContext(deps, opts.desk);
      const { text } = await exportDesk(ctx);
      if (file === undefined || file === '-') {
        io.out(text);
        return;
      }
      try {
        writeFileSync(file, text, 'utf8');
      } catch (err) {
        throw new UsageError(`Cannot write ${file}: ${(err as Error).message}.`);
      }
      io.out(`Wrote the business file of ${ctx.desk.slug} to ${file}.`);
    });
  });
}
