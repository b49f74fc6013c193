import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importBusinessText } from '../../src/domain/business/import.ts';
import { harness, type Harness } from '../helpers/app.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';

// A message a business file brings in as `approved` was signed off and not sent by this desk;
// no call is sending it, so the row can be drafted, completed and run at once.

const FILE = `
desk: { name: Approved Co, slug: approved-co, timezone: UTC, currency: GBP }
grants: [reach_out]
work:
  - title: Confirm the delivery
    kind: delivery
    class: reach_out
    due: "+3d"
    contact_name: Sam
    contact_email: sam@example.test
    messages: [{ status: approved, subject: Delivery, body: "Is Friday still right?" }]
  - title: Confirm the collection
    kind: delivery
    class: reach_out
    due: "+4d"
    contact_name: Ana
    contact_email: ana@example.test
    messages: [{ status: approved, subject: Collection, body: "Is Monday still right?" }]
`;

describe.each(DIALECTS)('a message imported as approved ($name)', ({ open }) => {
  let store: TestStore;
  let h: Harness;
  let key: string;
  const rowId = async (title: string) => {
    const res = await h.call('GET', '/api/v1/work', { key });
    return (res.json().data.items as { id: number; title: string }[]).find((w) => w.title === title)!.id;
  };

  beforeAll(async () => {
    store = await open();
    h = await harness(store);
    key = (await importBusinessText(store.db, FILE, { now: h.clock.now(), keyName: 'k' })).key!.key;
  });
  afterAll(async () => {
    await h?.close();
    await store?.close();
  });

  it('is not taken for a send under way: draft writes a message', async () => {
    const id = await rowId('Confirm the delivery');
    const res = await h.call('POST', `/api/v1/work/${id}/draft`, { key });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ drafted: true, to: 'sam@example.test' });
  });

  it('is not taken for a send under way: complete records the work', async () => {
    const id = await rowId('Confirm the collection');
    const res = await h.call('POST', `/api/v1/work/${id}/complete`, { key, body: {} });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'done', failed: false, delivered: false });
  });
});
