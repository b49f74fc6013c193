import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { desk } from '../../test/helpers/cli.ts';
import { asksVersion, deskVersion } from './version.ts';

const written = (JSON.parse(fs.readFileSync(path.resolve('package.json'), 'utf8')) as { version: string }).version;

describe('desk --version', () => {
  it("prints package.json's version, as a line or with --json as JSON", async () => {
    const plain = await desk(':memory:', '--version');
    expect(plain.code).toBe(0);
    expect(plain.out.trim()).toBe(written);
    const json = await desk(':memory:', '--version', '--json');
    expect(json.code).toBe(0);
    expect(json.json()).toEqual({ version: written });
    // Anything else typed beside it is refused, as an unknown flag is anywhere.
    const beside = await desk(':memory:', '--version', '--bogus');
    expect(beside.code).toBe(1);
    expect(beside.out).toBe('');
    expect(beside.err).toBe('desk: --version takes nothing but --json; "--bogus" was given with it.\n');
  });

  it("finds the file from the built program's folder as from the sources'", () => {
    expect(deskVersion(path.resolve('dist'))).toBe(written);
    expect(deskVersion(path.resolve('src/cli'))).toBe(written);
    // Another project's package.json on the way up is not Desk's.
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-version-'));
    fs.writeFileSync(path.join(elsewhere, 'package.json'), '{"name":"other","version":"9.9.9"}');
    expect(deskVersion(elsewhere)).toBe('unknown');
    fs.rmSync(elsewhere, { recursive: true });
  });

  it('reads --json and --version after -- as values, never as flags', async () => {
    const db = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'desk-dashes-')), 'desk.db');
    const made = (name: string, slug: string) =>
      desk(db, 'desks', 'create', '--slug', slug, '--timezone', 'UTC', '--currency', 'USD', '--', name);
    const version = await made('--version', 'named-version');
    expect(version.code).toBe(0);
    expect(version.out).toContain('named-version');
    expect(version.out).toContain('--version');
    const json = await made('--json', 'named-json');
    expect(json.code).toBe(0);
    expect(json.out.startsWith('{')).toBe(false);
    expect(json.out).toContain('--json');
    fs.rmSync(path.dirname(db), { recursive: true });
  });

  it('answers --json with JSON only when the version is all that was asked', () => {
    expect(asksVersion(['--version', '--json'])).toBe(true);
    expect(asksVersion(['--json', '-V'])).toBe(true);
    expect(asksVersion(['--json'])).toBe(false);
    expect(asksVersion(['work', 'list', '--json', '--version'])).toBe(false);
  });
});
