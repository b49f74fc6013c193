import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net, { type AddressInfo } from 'node:net';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { startServer, type RunningServer } from '../../src/server.ts';

// The service over a real socket, as `npm start` runs it: first start seeds the demo desk and
// prints its key; the key works over HTTP; closing drains and releases the database.

describe('the running server', () => {
  let dir: string;
  let server: RunningServer;
  const printed: string[] = [];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-server-'));
    const config = loadConfig({
      DESK_DATABASE_URL: path.join(dir, 'desk.db'),
      DESK_PORT: '0',
      DESK_LOG_LEVEL: 'silent',
    });
    server = await startServer(config, { out: (t) => printed.push(t) });
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('prints the demo key and a curl line on first start, and that key works over the socket', async () => {
    const text = printed.join('\n');
    const key = /(desk_[0-9A-Za-z]{40})/.exec(text)?.[1];
    expect(key).toBeDefined();
    expect(text).toContain(`curl -s -H "Authorization: Bearer ${key}"`);
    const me = await fetch(`${server.url}/api/v1/me`, { headers: { authorization: `Bearer ${key}` } });
    expect(me.status).toBe(200);
    const body = (await me.json()) as { data: { desk: { slug: string }; work: { open: number } } };
    expect(body.data.desk.slug).toBe('demo-bakery');
    expect(body.data.work.open).toBeGreaterThan(0);
  });

  it('the watch scheduler runs at start: the demo lease, 40 days out under a 60-day watch, becomes a row', async () => {
    let rows: Array<{ title: string }> = [];
    for (let i = 0; i < 100 && rows.length === 0; i++) {
      rows = await server.deps.store.db.selectFrom('work').select('title').where('watch_id', 'is not', null).execute();
      if (rows.length === 0) await new Promise((r) => setTimeout(r, 50));
    }
    expect(rows.map((r) => r.title)).toEqual(['Lease renewal: 12 High Street']);
  });

  it('answers without a key with 401 in the envelope, and serves the description to anyone', async () => {
    const res = await fetch(`${server.url}/api/v1/me`);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: { code: 'unauthorized', message: expect.stringMatching(/Send a key/) } });
    const doc = await fetch(`${server.url}/api/v1/openapi.json`);
    expect(doc.status).toBe(200);
    expect(((await doc.json()) as { openapi: string }).openapi).toBe('3.1.0');
  });

  it('a body over 1 MiB is 413 payload_too_large', async () => {
    const key = /(desk_[0-9A-Za-z]{40})/.exec(printed.join('\n'))![1];
    const res = await fetch(`${server.url}/api/v1/arrangements/1/notes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ body: 'x'.repeat(1024 * 1024 + 10) }),
    });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
  });
});

describe('the desk command as installed', () => {
  it('`node bin/desk.js --help` lists the commands, and a bad flag exits 1 with one line', async () => {
    const run = (args: string[]) =>
      new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
        const child = spawn(process.execPath, ['bin/desk.js', ...args], {
          env: { ...process.env, DESK_DATABASE_URL: path.join(os.tmpdir(), 'desk-never-opened.db') },
        });
        let out = '';
        let err = '';
        child.stdout.on('data', (c) => (out += c));
        child.stderr.on('data', (c) => (err += c));
        child.on('close', (code) => resolve({ code, out, err }));
      });
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/Usage: desk \[options\] \[command\]/);
    const bad = await run(['keys', 'revoke']);
    expect(bad.code).toBe(1);
    expect(bad.err.trim()).toBe("desk: missing required argument 'id'");
  });

  it('`desk serve` on a port already taken says so, exits 1 and makes no database', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-taken-'));
    // Its words go to a file, as at a terminal: a pipe would keep the process alive by itself,
    // and hide an exit that leaves the close unfinished.
    const errFile = path.join(home, 'err.txt');
    const errFd = fs.openSync(errFile, 'w');
    try {
      const child = spawn(process.execPath, ['bin/desk.js', 'serve', '--port', String(port)], {
        env: { ...process.env, DESK_DATABASE_URL: path.join(home, 'desk.db'), DESK_LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'ignore', errFd],
      });
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(fs.readFileSync(errFile, 'utf8').trim()).toBe(
        `desk: Port ${port} on 127.0.0.1 is already in use; choose another with --port or DESK_PORT.`,
      );
      expect(code).toBe(1);
      expect(fs.readdirSync(home)).toEqual(['err.txt']);
    } finally {
      fs.closeSync(errFd);
      await new Promise((resolve) => taken.close(resolve));
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  it('`desk serve` on an address not of this machine says so, exits 1 and makes no database', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-host-'));
    const errFile = path.join(home, 'err.txt');
    const errFd = fs.openSync(errFile, 'w');
    try {
      // 192.0.2.1 is set aside for documentation: no machine has it.
      const child = spawn(
        process.execPath,
        ['bin/desk.js', 'serve', '--host', '192.0.2.1', '--port', '0', '--db', path.join(home, 'data', 'desk.db')],
        { env: { ...process.env, DESK_LOG_LEVEL: 'warn' }, stdio: ['ignore', 'ignore', errFd] },
      );
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(fs.readFileSync(errFile, 'utf8').trim()).toBe(
        'desk: Cannot listen on 192.0.2.1: it is not an address of this machine. Use --host 127.0.0.1 (this machine only) or 0.0.0.0 (every address), or DESK_HOST.',
      );
      expect(code).toBe(1);
      expect(fs.readdirSync(home)).toEqual(['err.txt']);
    } finally {
      fs.closeSync(errFd);
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});
