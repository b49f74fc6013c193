import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { isPostgresUrl, openStore, type OpenOptions, type Store } from '../../src/store/db.ts';

// A fresh database for each test file (or each call): a SQLite file in a temp folder, or a
// new PostgreSQL database on the server named by DESK_TEST_DATABASE_URL.

export const PG_URL = process.env.DESK_TEST_DATABASE_URL || null;

/**
 * The master key the tests give PostgreSQL databases, which have no key file (DESK_SECRET_KEY
 * in a child process or a CLI run). SQLite test databases make their own key file.
 */
export const TEST_SECRET_KEY = Buffer.alloc(32, 7).toString('base64');

/** DESK_SECRET_KEY for a process or command reaching `target`, when that needs one. */
export function secretKeyEnv(target: string): Record<string, string> {
  return isPostgresUrl(target) ? { DESK_SECRET_KEY: TEST_SECRET_KEY } : {};
}

/** Opens a test database again (another handle, as another process would). */
export function reopenStore(target: string, opts: OpenOptions = {}): Promise<Store> {
  return openStore(target, { ...(isPostgresUrl(target) ? { secretKey: TEST_SECRET_KEY } : {}), ...opts });
}

export type DialectCase = { name: 'sqlite' | 'postgres'; open: () => Promise<TestStore> };

export interface TestStore extends Store {
  /** The URL or path another process can open to reach the same data. */
  target: string;
}

export async function sqliteStore(): Promise<TestStore> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-test-'));
  const file = path.join(dir, 'desk.db');
  const store = await openStore(file);
  return {
    ...store,
    target: file,
    close: async () => {
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function postgresStore(): Promise<TestStore> {
  const PG_URL = process.env.DESK_TEST_DATABASE_URL;
  if (!PG_URL) throw new Error('DESK_TEST_DATABASE_URL is not set');
  const name = `desk_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  const store = await openStore(url.toString(), { secretKey: TEST_SECRET_KEY });
  return {
    ...store,
    target: url.toString(),
    close: async () => {
      await store.close();
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** SQLite always; PostgreSQL too when DESK_TEST_DATABASE_URL is set. Use with describe.each. */
export const DIALECTS: DialectCase[] = [
  { name: 'sqlite', open: sqliteStore },
  ...(PG_URL ? [{ name: 'postgres' as const, open: postgresStore }] : []),
];

if (!PG_URL && process.env.VITEST && !process.env.DESK_QUIET_SKIPS) {
  // One line, once per test file that loads this helper (the benches, which load it too, say
  // which databases they measure themselves).
  console.info('PostgreSQL leg skipped: DESK_TEST_DATABASE_URL is not set.');
}
