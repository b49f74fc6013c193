import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { harness, type Harness } from '../helpers/app.ts';
import { makeDesk } from '../helpers/factories.ts';
import { eventsOf, makeArrangement } from './writes-helpers.ts';

describe.each(DIALECTS)('arrangement notes ($name)', ({ open }) => {
  let store: TestStore;
  let h: Harness;
  let d: Awaited<ReturnType<typeof makeDesk>>;
  let arrId: number;
  const post = (id: number | string, body?: unknown) =>
    h.call('POST', `/api/v1/arrangements/${id}/notes`, { key: d.key, body });
  const notesOf = (id: number) =>
    store.db
      .selectFrom('activity')
      .selectAll()
      .where('arrangement_id', '=', id)
      .where('kind', '=', 'note')
      .orderBy('id', 'asc')
      .execute();

  beforeAll(async () => {
    store = await open();
    h = await harness(store);
    d = await makeDesk(store.db);
    arrId = (await makeArrangement(store.db, d.desk.id)).id;
  });
  afterAll(async () => {
    await h.close();
    await store.close();
  });

  it('stores the note as an inbound activity entry and answers with its shape', async () => {
    const res = await post(arrId, { body: '  Landlord rang: happy to renew at the same rent.  ' });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({
      arrangement_id: arrId,
      channel: 'note',
      body: 'Landlord rang: happy to renew at the same rent.',
      actor: 'api',
    });
    expect(typeof data.id).toBe('number');
    expect(data.created_at).toBe('2026-11-22T10:00:00.000Z');
    const [stored] = (await notesOf(arrId)).filter((n) => n.id === data.id);
    expect(stored).toMatchObject({
      obligation_id: null,
      arrangement_id: arrId,
      direction: 'inbound',
      status: 'recorded',
      channel: 'note',
      actor: 'api',
    });
    const ev = (await eventsOf(store.db, d.desk.id, 'note_added')).find((e) => e.data.activity_id === data.id);
    expect(ev!.data).toMatchObject({ arrangement_id: arrId, channel: 'note' });
  });

  it('keeps only the literal channel "call"; anything else becomes "note"; the actor is recorded', async () => {
    expect((await post(arrId, { body: 'Rang them', channel: 'call', actor: 'Sam' })).json().data).toMatchObject({
      channel: 'call',
      actor: 'Sam',
    });
    expect((await post(arrId, { body: 'Texted', channel: 'sms' })).json().data.channel).toBe('note');
    expect((await post(arrId, { body: 'Shouted', channel: 'CALL' })).json().data.channel).toBe('note');
  });

  it('truncates the body at 4,000 characters after trimming', async () => {
    const res = await post(arrId, { body: `   ${'a'.repeat(3990)}${'b'.repeat(1000)}` });
    const body = res.json().data.body as string;
    expect(body.length).toBe(4000);
    expect(body).toBe(`${'a'.repeat(3990)}${'b'.repeat(10)}`);
  });

  it('an empty, blank or missing body, a wrong type or a request that is not JSON is a 400 asking to say something', async () => {
    const before = (await notesOf(arrId)).length;
    const eventsBefore = (await eventsOf(store.db, d.desk.id)).length;
    const invisible = { body: '\u200B \uFEFF\u2060\u00AD' };
    for (const body of [
      { body: '' },
      { body: '   \n\t ' },
      invisible,
      {},
      { body: 42 },
      { body: null },
      [1],
      'just text',
    ]) {
      const res = await post(arrId, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.code).toBe('bad_request');
      expect(res.json().error.message).toMatch(/Say something in body/);
    }
    const typed = await post(arrId, { body: 42 });
    expect(typed.json().error.message).toBe('Say something in body, as a string of text; this one is a number.');
    for (const payload of ['{"body": "unterminated', 'body=hello', '']) {
      const res = await h.call('POST', `/api/v1/arrangements/${arrId}/notes`, {
        key: d.key,
        payload,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode, payload).toBe(400);
      expect(res.json().error.message).toMatch(/Say something in body/);
    }
    expect((await notesOf(arrId)).length).toBe(before);
    expect((await eventsOf(store.db, d.desk.id)).length).toBe(eventsBefore);
  });

  it('answers 404 naming an arrangement when it is not on this desk, and writes nothing', async () => {
    const other = await makeDesk(store.db);
    const theirs = await makeArrangement(store.db, other.desk.id, 'Their lease');
    const eventsBefore = (await eventsOf(store.db, d.desk.id)).length;
    for (const id of [theirs.id, 999999, 'abc']) {
      const res = await post(id, { body: 'Hello' });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('not_found');
      expect(res.json().error.message).toContain('arrangement');
    }
    expect(await notesOf(theirs.id)).toHaveLength(0);
    expect((await eventsOf(store.db, d.desk.id)).length).toBe(eventsBefore);
  });

  it('a wrong type on another field is a 400 naming it', async () => {
    const res = await post(arrId, { body: 'fine', actor: 7 });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(/actor/);
  });
});
