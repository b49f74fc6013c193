import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saidLines, startServerProcess } from '../helpers/process.ts';

// Where the log is JSON (stdout not a terminal, or DESK_LOG_FORMAT=json), every line of stdout
// is a record a collector can parse, the process's own notices and the first start's key too.

describe('desk serve writing JSON logs', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-json-lines-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['asked for', { DESK_LOG_FORMAT: 'json' }],
    ['not on a terminal', {}],
  ])(
    'writes nothing but records to stdout (%s), from the first start to the stop',
    async (_case, env) => {
      const db = path.join(dir, `${Object.keys(env).length}.db`);
      const server = await startServerProcess(db, { ...env, DESK_LOG_LEVEL: 'info' });
      const me = await fetch(`${server.url}/api/v1/me`);
      expect(me.status).toBe(401);
      expect(await server.stop()).toBe(0);
      const lines = server.output().trimEnd().split('\n');
      const records = lines.map((line) => JSON.parse(line) as { level: number; time: number; msg?: string });
      for (const r of records) {
        expect(r.level).toEqual(expect.any(Number));
        expect(r.time).toEqual(expect.any(Number));
      }
      const said = saidLines(server.output());
      expect(said).toContainEqual(expect.stringMatching(/^Its key, shown once: desk_\S+$/));
      expect(said).toContainEqual(
        expect.stringMatching(/^Sign in to its screen \(once, within 15 minutes\): http:\/\/\S+$/),
      );
      expect(said).toContainEqual(expect.stringMatching(/^Desk is listening on http:\/\/\S+\/api\/v1 /));
      expect(said.at(-1)).toBe('Stopped.');
    },
    120_000,
  );

  it('writes plain lines when a readable log is asked for', async () => {
    const server = await startServerProcess(path.join(dir, 'pretty.db'), { DESK_LOG_FORMAT: 'pretty' });
    // Answering, as in the cases above, before it is stopped.
    expect((await fetch(`${server.url}/api/v1/me`)).status).toBe(401);
    expect(await server.stop()).toBe(0);
    const lines = server.output().trimEnd().split('\n');
    expect(lines).toContainEqual(expect.stringMatching(/^Its key, shown once: desk_\S+$/));
    expect(lines.at(-1)).toBe('Stopped.');
  }, 120_000);
});
