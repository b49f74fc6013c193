import fs from 'node:fs';
import path from 'node:path';

// The version `desk --version` prints is package.json's, the one place it is written. The program
// runs from src/cli/ or, built, from dist/, so the file is looked for in the folders above.

export function deskVersion(from: string = import.meta.dirname): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'desk' && typeof pkg.version === 'string') return pkg.version;
    }
    if (path.dirname(dir) === dir) return 'unknown';
  }
}

/** What was typed beside `--version` that it does not take, when it was asked for. */
export function versionWith(args: readonly string[]): string[] {
  if (!args.some((a) => a === '-V' || a === '--version')) return [];
  return args.filter((a) => !['-V', '--version', '--json'].includes(a));
}

/** `desk --version`, alone or with `--json` (which then prints `{"version": ...}`). */
export function asksVersion(args: readonly string[]): boolean {
  return (
    args.some((a) => a === '-V' || a === '--version') && args.every((a) => ['-V', '--version', '--json'].includes(a))
  );
}
