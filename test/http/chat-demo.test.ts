import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { harness, type Harness } from '../helpers/app.ts';
import { importDemo, type DemoResult } from '../../src/domain/business/demo.ts';

// The owner's eight questions, asked of the bundled demo desk (examples/demo.yaml) on
// 2026-11-22, each answer checked against the demo's own records.

describe.each(DIALECTS)('chat on the demo desk ($name)', ({ open }) => {
  let store: TestStore;
  let h: Harness;
  let demo: DemoResult;
  const ask = async (text: string): Promise<string> => {
    const res = await h.call('POST', '/api/v1/chat', { key: demo.key.key, body: { text } });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ question: text.trim(), timed_out: false });
    return data.answer as string;
  };
  const named = (ref: string, title: string) => `"${title}" (#${demo.refs[ref]})`;

  beforeAll(async () => {
    store = await open();
    h = await harness(store);
    demo = await importDemo(store.db, { now: h.clock.now() });
  });
  afterAll(async () => {
    await h.close();
    await store.close();
  });

  it('what is overdue? names the one open row past its date, not the finished one', async () => {
    const a = await ask('What is overdue?');
    expect(a).toContain('1 row is overdue');
    expect(a).toContain(named('vat', 'File VAT return'));
    expect(a).toContain('2026-11-21');
    expect(a).not.toContain('water bill');
  });

  it("what needs me this week? names rows due within seven days whose next step is a person's", async () => {
    const a = await ask('what needs me this week?');
    expect(a).toContain(named('vat', 'File VAT return'));
    expect(a).toContain(named('flour-invoice', 'Pay the flour invoice'));
    // Due this week but the desk does them itself, or nothing is owed yet.
    expect(a).not.toContain('Chase the insurance renewal terms');
    expect(a).not.toContain('Confirm the Christmas flour delivery slot');
  });

  it('what are we waiting on? names who, on what, and for how long', async () => {
    const a = await ask('what are we waiting on?');
    expect(a).toContain('2 rows');
    expect(a).toContain(`Sam Oven on ${named('chase-quote', 'Get the oven repair quote')}, for 12 days`);
    expect(a).toContain(
      `Priya Shah on ${named('delivery-slot', 'Confirm the Christmas flour delivery slot')}, for 2 days`,
    );
  });

  it("when does the lease renew? gives the lease's renewal date", async () => {
    const a = await ask('when does the lease renew?');
    expect(a).toContain('High Street lease');
    expect(a).toContain('2027-01-01');
    expect(a).toContain('40 days');
  });

  it('how much do we owe on domains? sums the unpaid and collections domains', async () => {
    const a = await ask('how much do we owe on domains?');
    expect(a).toContain('£57.00');
    expect(a).toContain('bakery-shop.test');
    expect(a).toContain('cornerbakery-cakes.test');
    expect(a).not.toContain('cornerbakery.test ');
  });

  it("is the mailbox working? reports the mail connection's state", async () => {
    const a = await ask('is the mailbox working?');
    expect(a).toMatch(/^Yes/);
    expect(a).toContain('Shop mailbox');
  });

  it('what can the desk do without asking? names the granted classes and the rows it is doing', async () => {
    const a = await ask('what can the desk do without asking?');
    expect(a).toContain('reach_out');
    expect(a).toContain('chase');
    expect(a).toContain(named('insurance-chase', 'Chase the insurance renewal terms'));
    expect(a).toContain(named('window-quote', 'Ask the window cleaner for a winter quote'));
    expect(a).not.toContain('Pay the flour invoice');
  });

  it('tell me about row N describes that row from its record', async () => {
    const a = await ask(`tell me about row ${demo.refs['chase-quote']}`);
    expect(a).toContain(named('chase-quote', 'Get the oven repair quote'));
    expect(a).toContain('2026-11-24');
    expect(a).toContain('Sam Oven');
    expect(a).toContain('Chase it');
  });
});
