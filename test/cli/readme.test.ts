import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desk } from '../helpers/cli.ts';
import { startSmtpServer, type TestSmtp } from '../helpers/smtp.ts';

// The README's owner's-command examples, run in order against a fresh SQLite database exactly
// as printed, so the README cannot drift from the program. `serve` is left out: it runs until
// stopped, and the server has tests of its own. The demo's mailbox is 127.0.0.1:2525, so a
// real SMTP server listens there for the example that sends.

/** The `npx desk` lines of the README's shell blocks under a heading. */
function readmeCommands(readme: string, heading: string): string[] {
  const section = readme.slice(readme.indexOf(heading));
  const next = section.indexOf('\n## ', heading.length);
  const body = next === -1 ? section : section.slice(0, next);
  const blocks = [...body.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
  return blocks
    .flatMap((b) => b.split('\n'))
    .map((l) => l.trim())
    .filter((l) => l.startsWith('npx desk '));
}

/** Splits a command line as a shell would here: double- or single-quoted words, a trailing # comment. */
function words(line: string): string[] {
  const out: string[] = [];
  const re = /\s*(?:"([^"]*)"|'([^']*)'|(#.*$)|([^\s"'#]+))/g;
  for (let m = re.exec(line); m && m[0] !== ''; m = re.exec(line)) {
    if (m[3] !== undefined) break;
    out.push(m[1] ?? m[2] ?? m[4]!);
  }
  return out;
}

describe("the README's examples", () => {
  let dir: string;
  let smtp: TestSmtp;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'desk-readme-'));
    smtp = await startSmtpServer({ port: 2525 });
  });
  afterAll(async () => {
    await smtp.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads the commands as written', () => {
    expect(words('npx desk work add --desk x --title "Renew the alarm contract" --due +14d   # row 17')).toEqual([
      'npx',
      'desk',
      'work',
      'add',
      '--desk',
      'x',
      '--title',
      'Renew the alarm contract',
      '--due',
      '+14d',
    ]);
  });

  it('run top to bottom on a fresh database, each exiting 0', async () => {
    const lines = readmeCommands(readFileSync('README.md', 'utf8'), "## The owner's command");
    expect(lines.length).toBeGreaterThan(15);
    const db = path.join(dir, 'data', 'desk.db');
    const ran: string[] = [];
    for (const line of lines) {
      const args = words(line).slice(2);
      if (args[0] === 'serve') continue;
      const r = await desk(db, ...args);
      expect(r.code, `${line}\n${r.err}${r.out}`).toBe(0);
      ran.push(args.slice(0, 2).join(' '));
    }
    expect(ran).toContain('run 7');
    expect(smtp.received.length).toBeGreaterThan(0);
  });
});
