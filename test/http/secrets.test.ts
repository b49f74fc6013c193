import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/app.ts';
import { desk, deskWith } from '../helpers/cli.ts';
import { DIALECTS, reopenStore, sqliteStore as open0, TEST_SECRET_KEY, type TestStore } from '../helpers/db.ts';
import { rotateSecretKey } from '../../src/store/rotate.ts';
import { testMailbox } from '../../src/domain/desks/test-mailbox.ts';
import { makeDesk, makeWork } from '../helpers/factories.ts';
import { startSmtpServer, type TestSmtp } from '../helpers/smtp.ts';
import { addConnection } from '../helpers/business.ts';
import { exportDesk } from '../../src/domain/business/export.ts';
import { deskContext } from '../../src/domain/context.ts';
import { Sealer, newKey } from '../../src/store/cipher.ts';
import { withSealer } from '../../src/store/secret-key.ts';
import { connectionConfig, sealConfig } from '../../src/store/repositories/connections.ts';
import type { Store } from '../../src/store/db.ts';

// Connection secrets are sealed at rest: the database file (or a dump) never holds a password
// in clear, mail still goes out with a sealed password, a rotation keeps every secret readable,
// and a wrong key is a clear refusal, never a 500.

const SMTP_PASS = 'smtp-pw-Vq7rT2xLm';
const PORTAL_PASS = 'portal-pw-Hk3sW9zQ';
const IMAP_PASS = 'imap-pw-Bn5cY8pJd';
const LEGACY_PASS = 'legacy-pw-Xe4uR6tGa';
// What a business file may give a service that signs in another way: each is a secret by its name.
const TOKEN = 'api-token-Zk8wQ3vNp';
const API_KEY = 'api-key-Rt6yH2mLc';
const PIN = '738291';
const NESTED_KEY = 'nested-key-Pq4sT7wXz';
// A password that only looks sealed is a secret like any other, sealed and re-sealed as one.
const LOOKS_SEALED = 'sealed:v1:000000000000:AAAA';
const PASSWORDS = [SMTP_PASS, PORTAL_PASS, IMAP_PASS, LEGACY_PASS, TOKEN, API_KEY, PIN, NESTED_KEY, LOOKS_SEALED];

const hasPgDump = (() => {
  try {
    execFileSync('pg_dump', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** Everything the database holds as bytes: the SQLite file and its log, or a pg_dump of it. */
function storedBytes(store: TestStore): string | null {
  if (store.dialect === 'sqlite')
    return [store.target, `${store.target}-wal`]
      .filter((f) => fs.existsSync(f))
      .map((f) => fs.readFileSync(f).toString('latin1'))
      .join('\n');
  return hasPgDump ? execFileSync('pg_dump', ['--dbname', store.target], { encoding: 'utf8' }) : null;
}

async function secretsOf(store: Store, ids: number[], deskId: string): Promise<Record<number, unknown>> {
  const out: Record<number, unknown> = {};
  for (const id of ids) out[id] = JSON.parse((await connectionConfig(store.db, deskId, id)) ?? 'null');
  return out;
}

describe.each(DIALECTS)('connection secrets at rest ($name)', ({ name, open }) => {
  let store: TestStore;
  let h: Harness;
  let smtp: TestSmtp;
  let d: Awaited<ReturnType<typeof makeDesk>>;
  const ids: number[] = [];

  beforeAll(async () => {
    store = await open();
    smtp = await startSmtpServer({ auth: { user: 'desk', pass: SMTP_PASS } });
    d = await makeDesk(store.db);
    const mail = await addConnection(store.db, d.desk.id, {
      name: 'Office mail',
      auth_type: 'login',
      config: {
        host: '127.0.0.1',
        port: smtp.port,
        secure: false,
        starttls: false,
        user: 'desk',
        pass: SMTP_PASS,
        from: 'desk@bakery.test',
        imap: { host: '127.0.0.1', port: 993, user: 'desk', pass: IMAP_PASS },
      },
    });
    const portal = await addConnection(store.db, d.desk.id, {
      provider: 'gov-portal',
      name: 'Tax portal',
      category: 'filing',
      auth_type: 'login',
      config: { username: 'bakery', password: PORTAL_PASS },
    });
    // A row as an older Desk wrote it: the password in clear, straight into the table.
    const legacy = await store.db
      .insertInto('connections')
      .values({
        desk_id: d.desk.id,
        provider: 'smtp',
        name: 'Old mailbox',
        category: 'mail',
        auth_type: 'login',
        status: 'pending',
        config: JSON.stringify({ host: 'mail.old.test', user: 'old', pass: LEGACY_PASS }),
        created_at: '2026-01-01T00:00:00.000Z',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const api = await addConnection(store.db, d.desk.id, {
      provider: 'bank-api',
      name: 'Bank',
      category: 'payments',
      auth_type: 'token',
      config: {
        account: 'BAKERY-01',
        token: TOKEN,
        api_key: API_KEY,
        pin: PIN,
        credentials: { key: NESTED_KEY, password: LOOKS_SEALED },
      },
    });
    ids.push(mail.id, portal.id, legacy.id, api.id);
    // The next start seals what is still in clear.
    await (await reopenStore(store.target)).close();
    h = await harness(store, { config: { mailTimeoutMs: 3000 } });
  });
  afterAll(async () => {
    await h?.close();
    await smtp?.close();
    await store?.close();
  });

  it('stores every password sealed, older clear rows included, and reads each back in clear', async () => {
    const rows = await store.db
      .selectFrom('connections')
      .select(['id', 'config'])
      .where('desk_id', '=', d.desk.id)
      .execute();
    const raw = rows.map((r) => r.config).join('\n');
    for (const pw of PASSWORDS) expect(raw).not.toContain(pw);
    expect(raw.match(/sealed:v1:/g)).toHaveLength(9);
    // What is not secret stays readable in the row.
    expect(raw).toContain('mail.old.test');

    const opened = await secretsOf(store, ids, d.desk.id);
    expect(opened[ids[0]!]).toMatchObject({ user: 'desk', pass: SMTP_PASS, imap: { user: 'desk', pass: IMAP_PASS } });
    expect(opened[ids[1]!]).toEqual({ username: 'bakery', password: PORTAL_PASS });
    expect(opened[ids[2]!]).toMatchObject({ user: 'old', pass: LEGACY_PASS });
    expect(opened[ids[3]!]).toEqual({
      account: 'BAKERY-01',
      token: TOKEN,
      api_key: API_KEY,
      pin: PIN,
      credentials: { key: NESTED_KEY, password: LOOKS_SEALED },
    });
    expect(raw).toContain('BAKERY-01');
  });

  it('leaves an empty password empty: nothing is sealed, and an export has no secret to leave out', async () => {
    const other = await makeDesk(store.db);
    const { id } = await addConnection(store.db, other.desk.id, {
      name: 'No password',
      config: { host: 'mail.none.test', port: 587, user: 'desk', pass: '', from: 'desk@none.test' },
    });
    const raw = (
      await store.db.selectFrom('connections').select('config').where('id', '=', id).executeTakeFirstOrThrow()
    ).config;
    expect(JSON.parse(raw)).toMatchObject({ pass: '' });
    expect(raw).not.toContain('sealed:');
    const file = await exportDesk(deskContext(h.deps, other.desk, { type: 'owner', name: 'owner' }), 'yaml');
    expect(file.secretsLeftOut).toEqual([]);
    expect(file.text).not.toMatch(/Secrets were left out/);
  });

  it.skipIf(name === 'postgres' && !hasPgDump)(
    'the database file or a dump of it holds no password in clear',
    async () => {
      const bytes = storedBytes(store);
      expect(bytes).not.toBeNull();
      expect(bytes).toContain('mail.old.test');
      for (const pw of PASSWORDS) expect(bytes).not.toContain(pw);
    },
  );

  it.runIf(name === 'sqlite')('makes the key file beside the database, readable by its owner only', () => {
    const file = `${store.target}.key`;
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(file, 'utf8').trim()).toMatch(/^[A-Za-z0-9+/]{43}=$/);
  });

  it('sends mail through a server that checks the sealed password', async () => {
    const row = await makeWork(store.db, d.desk.id, {
      title: 'Ask about the boiler',
      class: 'reach_out',
      contact_name: 'Sam',
      contact_email: 'sam@landlord.test',
      due_date: '2026-12-01',
    });
    expect((await h.call('POST', `/api/v1/work/${row.id}/draft`, { key: d.key })).statusCode).toBe(200);
    const done = await h.call('POST', `/api/v1/work/${row.id}/complete`, { key: d.key, body: {} });
    expect(done.statusCode).toBe(200);
    expect(done.json().data).toMatchObject({ delivered: true, failed: false });
    expect(smtp.received.filter((m) => m.to.includes('sam@landlord.test'))).toHaveLength(1);
  });

  it('a password sealed under another key is a reason on the row, not a 500', async () => {
    const o = await makeDesk(store.db);
    const foreign = withSealer(store.db, new Sealer(newKey()));
    await store.db
      .insertInto('connections')
      .values({
        desk_id: o.desk.id,
        provider: 'smtp',
        name: 'Mail',
        category: 'mail',
        auth_type: 'login',
        status: 'connected',
        config: sealConfig(
          foreign,
          JSON.stringify({ host: '127.0.0.1', port: smtp.port, starttls: false, user: 'desk', pass: SMTP_PASS }),
        ),
        created_at: '2026-11-22T10:00:00.000Z',
      })
      .execute();
    try {
      const row = await makeWork(store.db, o.desk.id, {
        title: 'Chase the invoice',
        class: 'chase',
        contact_email: 'ana@client.test',
        due_date: '2026-12-01',
      });
      expect((await h.call('POST', `/api/v1/work/${row.id}/draft`, { key: o.key })).statusCode).toBe(200);
      const before = smtp.received.length;
      const done = await h.call('POST', `/api/v1/work/${row.id}/complete`, { key: o.key, body: {} });
      expect(done.statusCode).toBe(200);
      expect(done.json().data).toMatchObject({ delivered: false, failed: true });
      expect(done.json().data.delivery_note).toMatch(/password could not be opened.*fingerprint/);
      // A test message through that mailbox says the same, where it was a 500.
      const [box] = await store.db.selectFrom('connections').select('id').where('desk_id', '=', o.desk.id).execute();
      const owner = deskContext(h.deps, o.desk, { type: 'owner', name: 'owner' });
      await expect(testMailbox(owner, box!.id, 'ana@client.test')).resolves.toMatchObject({
        ok: false,
        said: expect.stringMatching(/password could not be opened.*fingerprint/),
      });
      expect(smtp.received.length).toBe(before);
    } finally {
      // Not left for the rotation below, which would rightly refuse a secret it cannot open.
      await store.db.deleteFrom('connections').where('desk_id', '=', o.desk.id).execute();
    }
  });

  it('refuses to start with a key that is not the one the secrets were sealed under, saying so', async () => {
    const wrong = newKey().toString('hex');
    await expect(reopenStore(store.target, { secretKey: wrong })).rejects.toThrow(
      /sealed under the key with fingerprint [0-9a-f]{12}, but DESK_SECRET_KEY holds the key with fingerprint [0-9a-f]{12}/,
    );
    expect((await desk(store.target, 'keys', 'list', '--desk', d.desk.slug)).code).toBe(0);
    const refused = await deskWith(
      { env: { DESK_SECRET_KEY: wrong } },
      store.target,
      'keys',
      'list',
      '--desk',
      d.desk.slug,
    );
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/^desk: The connection secrets in this database were sealed under the key/);
    expect(refused.err.trim().split('\n')).toHaveLength(1);
    await expect(reopenStore(store.target, { secretKey: 'too-short' })).rejects.toThrow(
      /DESK_SECRET_KEY must be 32 random bytes as 64 hex digits or 44 base64 characters/,
    );
  });

  it.runIf(name === 'postgres')('a PostgreSQL database without DESK_SECRET_KEY is refused at start', async () => {
    await expect(reopenStore(store.target, { secretKey: null })).rejects.toThrow(
      /A PostgreSQL database needs DESK_SECRET_KEY/,
    );
  });

  it('`desk secrets rotate` re-seals every secret under a new key, and the old key opens nothing', async () => {
    const before = await secretsOf(store, ids, d.desk.id);
    // A key typed by hand, all zeros or a short pattern repeated, is refused before anything is re-sealed.
    for (const weak of ['0'.repeat(64), 'ab'.repeat(32), '0123456789abcdef'.repeat(4).slice(0, 64)]) {
      const refused = await desk(store.target, 'secrets', 'rotate', '--new-key', weak);
      expect(refused.code).toBe(1);
      expect(refused.err).toMatch(/^desk: --new-key is not random: it holds fewer than 16 different bytes\./);
    }
    expect(await secretsOf(store, ids, d.desk.id)).toEqual(before);
    const run = await desk(store.target, 'secrets', 'rotate', '--json');
    expect(run.code).toBe(0);
    const out = run.json();
    expect(out.connections).toBe(4);
    let reopened: Store;
    if (name === 'sqlite') {
      // The key file now holds the new key; the key itself is not printed.
      expect(out).toMatchObject({ file: `${store.target}.key`, key: null });
      expect(fs.existsSync(`${store.target}.key.next`)).toBe(false);
      reopened = await reopenStore(store.target);
    } else {
      expect(out.file).toBeNull();
      expect(out.key).toMatch(/^[A-Za-z0-9+/]{43}=$/);
      await expect(reopenStore(store.target, { secretKey: TEST_SECRET_KEY })).rejects.toThrow(/fingerprint/);
      reopened = await reopenStore(store.target, { secretKey: out.key });
    }
    try {
      expect(reopened.secretKey.sealer.fingerprint).toBe(out.fingerprint);
      expect(await secretsOf(reopened, ids, d.desk.id)).toEqual(before);
      const raw = (await reopened.db.selectFrom('connections').select('config').execute()).map((r) => r.config);
      for (const pw of PASSWORDS) expect(raw.join('\n')).not.toContain(pw);
      expect(raw.join('\n')).toContain(`sealed:v1:${out.fingerprint}:`);
    } finally {
      await reopened.close();
    }
    // A process still on the old key (this test's own store, as a server not restarted since)
    // seals nothing more under it: what it sealed, no process could open beside the rest.
    const count = async () => (await store.db.selectFrom('connections').select('id').execute()).length;
    const had = await count();
    await expect(
      addConnection(store.db, d.desk.id, { name: 'After rotation', config: { host: 'h.test', pass: 'second-pass' } }),
    ).rejects.toThrow(/the key was changed \(desk secrets rotate\) after it started\. Nothing was saved/);
    expect(await count()).toBe(had);
    if (name === 'sqlite') {
      const bytes = storedBytes(store)!;
      for (const pw of PASSWORDS) expect(bytes).not.toContain(pw);
    }
  });
});

describe.each(DIALECTS)('a key rotated before any secret is stored ($name)', ({ name, open }) => {
  let store: TestStore;
  beforeAll(async () => {
    store = await open();
  });
  afterAll(async () => {
    await store?.close();
  });

  it('binds a process still on the old key all the same: it seals nothing under it', async () => {
    const d = await makeDesk(store.db);
    const run = await desk(store.target, 'secrets', 'rotate', '--json');
    expect(run.code, run.err).toBe(0);
    const out = run.json();
    expect(out.connections).toBe(0);
    // This test's store is a server started before the rotation, and not since.
    await expect(
      addConnection(store.db, d.desk.id, { name: 'Mailbox', config: { host: 'h.test', pass: 'first-pass' } }),
    ).rejects.toThrow(/the key was changed \(desk secrets rotate\) after it started\. Nothing was saved/);
    const reopened = await reopenStore(store.target, name === 'sqlite' ? {} : { secretKey: out.key });
    try {
      await addConnection(reopened.db, d.desk.id, { name: 'Mailbox', config: { host: 'h.test', pass: 'first-pass' } });
      const [stored] = await reopened.db.selectFrom('connections').select('config').execute();
      expect(stored!.config).toContain(`sealed:v1:${out.fingerprint}:`);
    } finally {
      await reopened.close();
    }
  });
});

describe('a rotation whose new key cannot be put in place of the key file', () => {
  it('keeps the new key beside it and says so, once the secrets are under it', async () => {
    const store = await open0();
    try {
      const d = await makeDesk(store.db);
      await addConnection(store.db, d.desk.id, { name: 'Mailbox', config: { host: 'h.test', pass: 'kept-pass' } });
      const file = `${store.target}.key`;
      // A key file that cannot be replaced by a rename: here a folder took its place.
      fs.rmSync(file);
      fs.mkdirSync(file);
      fs.writeFileSync(`${file}/x`, '');
      const key = newKey();
      await expect(rotateSecretKey(store, key)).rejects.toThrow(
        new RegExp(`The new key is in ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.next: copy it over`),
      );
      expect(fs.readFileSync(`${file}.next`, 'utf8').trim()).toBe(key.toString('base64'));
      const [stored] = await store.db.selectFrom('connections').select('config').execute();
      expect(stored!.config).toContain(`sealed:v1:${new Sealer(key).fingerprint}:`);
      fs.rmSync(file, { recursive: true });
    } finally {
      await store.close();
    }
  });
});
