import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/app.ts';
import { sqliteStore, type TestStore } from '../helpers/db.ts';
import { makeDesk, makeWork } from '../helpers/factories.ts';

// The API reads every body as JSON whatever its Content-Type says (P-5), and draft and run read
// none (P-writes-1): a header that is not a media type at all changes neither. The header is
// read before any store is touched, so one store is enough. Dates are plain keys handed in.

const ODD_TYPES = ['json', 'a/b/c', '', 'application', ';charset=utf-8'];

describe('a Content-Type that is not a media type', () => {
  let store: TestStore;
  let h: Harness;
  let key: string;
  let deskId: string;

  beforeAll(async () => {
    store = await sqliteStore();
    h = await harness(store);
    const d = await makeDesk(store.db);
    key = d.key;
    deskId = d.desk.id;
  });
  afterAll(async () => {
    await h.close();
    await store.close();
  });

  it('still has its JSON body read: a snooze moves the row by the days sent', async () => {
    for (const type of ODD_TYPES) {
      const row = await makeWork(store.db, deskId, { due_date: '2030-01-10' });
      const res = await h.call('POST', `/api/v1/work/${row.id}/snooze`, {
        key,
        payload: '{"days":2}',
        headers: { 'content-type': type },
      });
      expect(res.statusCode, type).toBe(200);
      expect(res.json().data.due_date, type).toBe('2030-01-12');
    }
  });

  it('on draft and run, answers as a request with no body does', async () => {
    const row = await makeWork(store.db, deskId, { class: 'file' });
    for (const verb of ['draft', 'run']) {
      const url = `/api/v1/work/${row.id}/${verb}`;
      const plain = await h.call('POST', url, { key });
      for (const type of ODD_TYPES) {
        const odd = await h.call('POST', url, { key, payload: 'not json', headers: { 'content-type': type } });
        expect(odd.statusCode, `${verb} ${type}`).toBe(plain.statusCode);
        expect(odd.json(), `${verb} ${type}`).toEqual(plain.json());
      }
    }
  });

  it('is refused for nothing else: text that is not JSON is still the 400 it always was', async () => {
    const row = await makeWork(store.db, deskId, {});
    const res = await h.call('POST', `/api/v1/work/${row.id}/snooze`, {
      key,
      payload: 'days=2',
      headers: { 'content-type': 'json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(/not JSON/);
  });
});
