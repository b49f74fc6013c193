import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type TestStore } from '../../../test/helpers/db.ts';
import { makeDesk, makeDraft, makeWork } from '../../../test/helpers/factories.ts';
import { messagesToGo } from './031_messages_to_go.ts';

// What earlier versions kept on a message still to go and P-import-23 no longer takes: an
// approved subject over two lines, a subject past 300 characters, a channel other than email.

describe.each(DIALECTS)('messages still to go brought to how they go out ($name)', ({ name, open }) => {
  let store: TestStore;
  let deskId: string;

  beforeAll(async () => {
    store = await open();
    deskId = (await makeDesk(store.db)).desk.id;
  });
  afterAll(async () => {
    await store?.close();
  });

  it('makes their subjects one line of at most 300 characters, sent by email, and leaves sent ones', async () => {
    const row = await makeWork(store.db, deskId, { title: 'Write' });
    const approved = await makeDraft(store.db, deskId, row.id, { subject: 'Line one\nline  two', status: 'approved' });
    const long = await makeDraft(store.db, deskId, row.id, { subject: `Filing: ${'é'.repeat(400)}` });
    const sms = await makeDraft(store.db, deskId, row.id, { subject: 'Text them' });
    await store.db.updateTable('activity').set({ channel: 'sms' }).where('id', '=', sms.id).execute();
    const sent = await makeDraft(store.db, deskId, row.id, { subject: `Went\n${'x'.repeat(400)}`, status: 'sent' });
    await store.db.updateTable('activity').set({ channel: 'sms' }).where('id', '=', sent.id).execute();
    const plain = await makeDraft(store.db, deskId, row.id, { subject: 'Keep  these  spaces' });

    await messagesToGo(name).up(store.db);

    const message = async (id: number) =>
      store.db.selectFrom('activity').select(['subject', 'channel']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(await message(approved.id)).toEqual({ subject: 'Line one line  two', channel: 'email' });
    expect(await message(long.id)).toEqual({ subject: `Filing: ${'é'.repeat(291)}…`, channel: 'email' });
    expect(await message(sms.id)).toEqual({ subject: 'Text them', channel: 'email' });
    expect(await message(sent.id)).toEqual({ subject: `Went\n${'x'.repeat(400)}`, channel: 'sms' });
    expect(await message(plain.id)).toEqual({ subject: 'Keep  these  spaces', channel: 'email' });
  });
});
