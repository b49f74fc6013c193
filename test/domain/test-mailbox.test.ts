import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deskContext, type DeskContext } from '../../src/domain/context.ts';
import { testMailbox } from '../../src/domain/desks/test-mailbox.ts';
import { findDesk } from '../../src/store/repositories/desks.ts';
import { harness, type Harness } from '../helpers/app.ts';
import { addConnection } from '../helpers/business.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { makeDesk } from '../helpers/factories.ts';
import { loopbackMailbox, startSmtpServer, type TestSmtp } from '../helpers/smtp.ts';

// The mailbox form's test message, through a real SMTP server on loopback: it goes to the
// address typed, a name beside it or not, or to the mailbox's own address when none is typed.

describe.each(DIALECTS)("the mailbox's test message ($name)", ({ open }) => {
  let store: TestStore;
  let h: Harness;
  let smtp: TestSmtp;
  let owner: DeskContext;
  beforeAll(async () => {
    store = await open();
    h = await harness(store);
    smtp = await startSmtpServer();
    const { desk } = await makeDesk(store.db);
    owner = deskContext(h.deps, (await findDesk(store.db, desk.id))!, { type: 'owner', name: 'owner' });
  });
  afterAll(async () => {
    await smtp?.close();
    await h?.close();
    await store?.close();
  });

  it('goes to the address typed, a name beside it or not, with a To header of the address', async () => {
    const { id } = await addConnection(store.db, owner.desk.id, {
      config: loopbackMailbox(smtp.port, 'Shop <shop@mailer.test>'),
    });
    const before = smtp.received.length;
    expect(await testMailbox(owner, id, 'Bob <bob@mailer.test>')).toMatchObject({ ok: true, to: 'bob@mailer.test' });
    const got = smtp.received[before]!;
    expect(got.to).toEqual(['bob@mailer.test']);
    expect(`\r\n${got.raw}`).toContain('\r\nTo: bob@mailer.test\r\n');
    // None typed: the mailbox's own.
    expect(await testMailbox(owner, id, '  ')).toMatchObject({ ok: true, to: 'shop@mailer.test' });
    await expect(testMailbox(owner, id, 'a(b)c@mailer.test')).rejects.toMatchObject({
      message: '"a(b)c@mailer.test" is not an email address; give a plain address, with none of ( ) " : [ ] \\ in it.',
    });
  });

  it('says what to do for a mailbox with no address of its own, when none is typed', async () => {
    const { id } = await addConnection(store.db, owner.desk.id, {
      config: { host: '127.0.0.1', port: smtp.port, starttls: false, user: 'apikey', pass: 'pw' },
    });
    await expect(testMailbox(owner, id, '')).rejects.toMatchObject({
      details: { field: 'to' },
      message:
        "The mailbox has no address of its own to send the test to (its From is not set and its user is not an address): give one to send it to, or set the mailbox's From.",
    });
  });
});
