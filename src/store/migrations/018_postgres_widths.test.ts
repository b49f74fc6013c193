import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, PG_URL, reopenStore, type TestStore } from '../../../test/helpers/db.ts';
import { makeDesk, makeWork } from '../../../test/helpers/factories.ts';
import type { Store } from '../db.ts';
import { addConnection } from '../repositories/connections.ts';
import { domainsOf } from '../repositories/domains.ts';
import { claimSeen, ensureReadPosition, noteRead, readPosition, startReading } from '../repositories/mail.ts';
import { openKinds } from '../repositories/queue.ts';
import { insertDomain } from '../repositories/records.ts';

// The moments here are plain values written to the store; no clock is read.
const AT = '2026-03-01T10:00:00.000Z';
// The largest UID IMAP allows (RFC 3501: a 32-bit unsigned number).
const TOP_UID = 4_294_967_295;

describe.each(DIALECTS)('mailbox UIDs up to 2^32 - 1 ($name)', ({ open }) => {
  let store: TestStore;
  afterAll(async () => {
    await store?.close();
  });

  it('keeps the read position and the handled record of a message with the largest UID', async () => {
    store = await open();
    const deskId = (await makeDesk(store.db)).desk.id;
    const connectionId = await addConnection(
      store.db,
      deskId,
      { provider: 'smtp', name: 'Mail', category: 'mail', auth_type: 'password', status: 'connected', config: {} },
      AT,
    );
    await ensureReadPosition(store.db, deskId, connectionId);
    await startReading(store.db, connectionId, '7', AT);
    const key = { connection_id: connectionId, uidvalidity: '7', uid: TOP_UID };
    expect(
      await claimSeen(store.db, {
        ...key,
        desk_id: deskId,
        message_id: '<a@b.test>',
        outcome: 'unrelated',
        handled_at: AT,
      }),
    ).toBe(true);
    expect(
      await claimSeen(store.db, {
        ...key,
        desk_id: deskId,
        message_id: '<a@b.test>',
        outcome: 'unrelated',
        handled_at: AT,
      }),
    ).toBe(false);
    await noteRead(store.db, connectionId, { uidvalidity: '7', checked_at: AT, last_uid: TOP_UID });
    expect((await readPosition(store.db, connectionId))?.last_uid).toBe(TOP_UID);
  });
});

// A database ordered by a language's rules (as `createdb` gives on many installs) lists in the
// order SQLite does: by the text's bytes.
const ICU = PG_URL ? describe : describe.skip;
ICU('lists on a PostgreSQL database with a language collation (en-US)', () => {
  const name = `desk_test_icu_${randomBytes(4).toString('hex')}`;
  let store: Store;
  let deskId: string;

  const admin = async (statement: string) => {
    const c = new pg.Client({ connectionString: PG_URL! });
    await c.connect();
    try {
      await c.query(statement);
    } finally {
      await c.end();
    }
  };

  beforeAll(async () => {
    await admin(`CREATE DATABASE ${name} TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'`);
    const url = new URL(PG_URL!);
    url.pathname = `/${name}`;
    store = await reopenStore(url.toString());
    deskId = (await makeDesk(store.db)).desk.id;
  });
  afterAll(async () => {
    await store?.close();
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });

  it('orders domains by their bytes', async () => {
    const names = ['b.test', 'B.test', 'a-z.test', 'az.test', 'Z.test', 'é.test', 'a.test'];
    for (const n of names)
      await insertDomain(store.db, {
        desk_id: deskId,
        name: n,
        registrar: 'Reg',
        status: 'active',
        renewal_on: null,
        amount_cents: 0,
        currency: 'GBP',
        broker_name: null,
        notes: null,
      });
    const got = (await domainsOf(store.db, deskId)).map((d) => d.name);
    expect(got).toEqual(['B.test', 'Z.test', 'a-z.test', 'a.test', 'az.test', 'b.test', 'é.test']);
  });

  it('lists the open kinds by their bytes', async () => {
    for (const kind of ['bee', 'Bee', 'apple']) await makeWork(store.db, deskId, { kind, title: kind });
    expect(await openKinds(store.db, deskId)).toEqual(['Bee', 'apple', 'bee']);
  });
});
