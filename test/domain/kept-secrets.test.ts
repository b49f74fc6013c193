import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deskContext, type DeskContext } from '../../src/domain/context.ts';
import { mailboxInput, portalInput } from '../../src/domain/desks/mailbox-form.ts';
import { saveConnection } from '../../src/domain/desks/save-connection.ts';
import { DeskError } from '../../src/domain/errors.ts';
import { connectionById, sealedKeyFingerprints } from '../../src/store/repositories/connections.ts';
import { harness, type Harness } from '../helpers/app.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { makeDesk } from '../helpers/factories.ts';

// A secret the owner leaves empty on a form is kept only where it would go where it went: the
// screen never shows it, and must not be a way to send it to a server of someone else's.

const MAILBOX = {
  name: 'Shop mailbox',
  host: 'smtp.shop.test',
  port: '587',
  security: 'starttls',
  user: 'shop@shop.test',
  pass: 'S3cret-Mailbox-Pass',
  from: 'shop@shop.test',
  imap_host: 'imap.shop.test',
  imap_port: '993',
  imap_security: 'tls',
  imap_user: 'shop@shop.test',
  imap_pass: 'S3cret-Inbox-Pass',
};

describe.each(DIALECTS)('secrets left empty on a form ($name)', ({ open }) => {
  let store: TestStore;
  let h: Harness;
  let ctx: DeskContext;
  let id: number;
  beforeAll(async () => {
    store = await open();
    h = await harness(store);
    const { desk } = await makeDesk(store.db);
    ctx = deskContext(h.deps, desk, { type: 'owner', name: 'owner' });
    id = (await saveConnection(ctx, null, mailboxInput(MAILBOX))).id;
  });
  afterAll(async () => {
    await h?.close();
    await store?.close();
  });

  const stored = async () => (await connectionById(store.db, ctx.desk.id, id))!.config as Record<string, any>;
  const refused = async (form: Record<string, string>) => {
    const err = await saveConnection(ctx, id, mailboxInput(form)).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DeskError);
    return (err as DeskError).details as { field: string; fields: Record<string, string> };
  };

  it('keeps both passwords while the servers and users they go to are as they were', async () => {
    await saveConnection(ctx, id, mailboxInput({ ...MAILBOX, name: 'Mailbox', pass: '', imap_pass: '' }));
    const config = await stored();
    expect([config.pass, config.imap.pass]).toEqual(['S3cret-Mailbox-Pass', 'S3cret-Inbox-Pass']);
  });

  it.each([
    ['host', { host: 'mail.evil.test' }],
    ['port', { port: '2525' }],
    ['security', { security: 'none' }],
    ['user', { user: 'shop@evil.test' }],
  ])('asks for the mail password again when the %s changes, and changes nothing', async (_what, change) => {
    const details = await refused({ ...MAILBOX, ...change, pass: '', imap_pass: '' });
    expect(details.fields).toEqual({
      pass: 'Type the password again: the server, port, security or user changed, and the stored password goes only where it went before.',
    });
    const config = await stored();
    expect([config.host, config.port, config.pass]).toEqual(['smtp.shop.test', 587, 'S3cret-Mailbox-Pass']);
  });

  it('seals a password that only looks sealed like any other, so the database still opens under its one key', async () => {
    const looksSealed = 'sealed:v1:000000000000:AAAA';
    const own = await sealedKeyFingerprints(store.db);
    const other = await saveConnection(ctx, null, mailboxInput({ ...MAILBOX, name: 'Odd mailbox', pass: looksSealed }));
    expect((await connectionById(store.db, ctx.desk.id, other.id))!.config.pass).toBe(looksSealed);
    expect(await sealedKeyFingerprints(store.db)).toEqual(own);
    const raw = await store.db
      .selectFrom('connections')
      .select('config')
      .where('id', '=', other.id)
      .executeTakeFirstOrThrow();
    expect(raw.config).not.toContain(looksSealed);
  });

  it("asks for the inbox password again when the inbox's server or user changes", async () => {
    for (const change of [{ imap_host: 'imap.evil.test' }, { imap_user: 'x@evil.test' }, { imap_port: '143' }]) {
      const details = await refused({ ...MAILBOX, ...change, pass: '', imap_pass: '' });
      expect(Object.keys(details.fields), JSON.stringify(change)).toEqual(['imap_pass']);
    }
    expect((await stored()).imap.host).toBe('imap.shop.test');
  });

  it('takes a new server with its password typed again', async () => {
    await saveConnection(
      ctx,
      id,
      mailboxInput({ ...MAILBOX, host: 'smtp2.shop.test', pass: 'New-Pass', imap_pass: '' }),
    );
    const config = await stored();
    expect([config.host, config.pass, config.imap.pass]).toEqual(['smtp2.shop.test', 'New-Pass', 'S3cret-Inbox-Pass']);
  });

  it("keeps a portal sign-in's password when only its user name changes: it goes where its playbooks go", async () => {
    const portal = { name: 'Tax portal', portal: 'hmrc', username: 'ana', password: 'Portal-Pass' };
    const sid = (await saveConnection(ctx, null, portalInput(portal))).id;
    await saveConnection(ctx, sid, portalInput({ ...portal, username: 'ana-ltd', password: '' }));
    expect((await connectionById(store.db, ctx.desk.id, sid))!.config).toEqual({
      username: 'ana-ltd',
      password: 'Portal-Pass',
    });
  });
});

describe.each(DIALECTS)('what a connection form holds is held to a length ($name)', ({ open }) => {
  let store: TestStore;
  let h: Harness;
  let ctx: DeskContext;
  beforeAll(async () => {
    store = await open();
    h = await harness(store);
    const { desk } = await makeDesk(store.db);
    ctx = deskContext(h.deps, desk, { type: 'owner', name: 'owner' });
  });
  afterAll(async () => {
    await h?.close();
    await store?.close();
  });

  const fieldsOf = (input: Parameters<typeof saveConnection>[2]) =>
    saveConnection(ctx, null, input).then(
      () => null,
      (e: DeskError) => (e.details as { fields: Record<string, string> }).fields,
    );

  it('refuses a portal or user name of thousands of characters beside its field, and stores nothing', async () => {
    const long = portalInput({
      name: 'Long portal',
      portal: 'P'.repeat(10_000),
      username: 'U'.repeat(10_000),
      password: 'pw',
    });
    expect(await fieldsOf(long)).toEqual({
      provider: 'Which service it is is said in at most 200 characters.',
      username: 'A user name is at most 254 characters.',
    });
    const mail = mailboxInput({ ...MAILBOX, host: `${'h'.repeat(250)}.test`, user: `${'u'.repeat(250)}@shop.test` });
    expect(await fieldsOf(mail)).toEqual({
      host: 'A server name is at most 253 characters.',
      user: 'A user name is at most 254 characters.',
    });
    expect(await store.db.selectFrom('connections').select('id').where('desk_id', '=', ctx.desk.id).execute()).toEqual(
      [],
    );
    // At the limits, taken.
    const fits = portalInput({ name: 'Fits', portal: 'P'.repeat(200), username: 'U'.repeat(254), password: 'pw' });
    expect(await fieldsOf(fits)).toBeNull();
  });
});
