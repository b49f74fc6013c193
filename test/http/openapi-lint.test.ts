import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/app.ts';
import { sqliteStore, type TestStore } from '../helpers/db.ts';

// The description as two linters nobody here wrote read it: Redocly's recommended rules and
// Spectral's spectral:oas. Only the licence and the contact may be missing (the service is not
// published with either); anything else they report fails the suite.

const run = promisify(execFile);
const BIN = path.resolve('node_modules/.bin');

describe('the description passes Redocly and Spectral', () => {
  let store: TestStore;
  let h: Harness;
  let dir: string;
  let file: string;

  beforeAll(async () => {
    store = await sqliteStore();
    h = await harness(store);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-openapi-'));
    file = path.join(dir, 'openapi.json');
    fs.writeFileSync(file, (await h.call('GET', '/api/v1/openapi.json')).body);
    fs.writeFileSync(path.join(dir, '.spectral.yaml'), 'extends: ["spectral:oas"]\n');
  });
  afterAll(async () => {
    await h.close();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("Redocly's recommended rules: nothing but the licence", async () => {
    const out = await run(path.join(BIN, 'redocly'), ['lint', file, '--format=json'], {
      cwd: dir,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    }).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
    const report = JSON.parse(out.stdout) as { problems: Array<{ ruleId: string; message: string }> };
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([expect.stringMatching(/^info-license:/)]);
  }, 120_000);

  it("Spectral's spectral:oas: nothing but the contact", async () => {
    const out = await run(
      path.join(BIN, 'spectral'),
      ['lint', file, '--ruleset', path.join(dir, '.spectral.yaml'), '--format', 'json', '--quiet'],
      { cwd: dir },
    ).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
    const report = JSON.parse(out.stdout || '[]') as Array<{ code: string; message: string }>;
    expect(report.map((p) => `${p.code}: ${p.message}`)).toEqual([expect.stringMatching(/^info-contact:/)]);
  }, 120_000);
});
