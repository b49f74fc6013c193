import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/app.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { addUnit } from '../helpers/business.ts';
import { makeDesk } from '../helpers/factories.ts';
import { ownerSession } from './helpers.ts';

// The owner edits a unit on the screen, whose form shows every column as text; what the API
// answers for the unit afterwards keeps the business file's numbers as numbers.

describe.each(DIALECTS)("a unit's columns edited on the screen ($name)", ({ open }) => {
  let store: TestStore;
  let h: Harness;
  beforeAll(async () => {
    store = await open();
    h = await harness(store);
  });
  afterAll(async () => {
    await h?.close();
    await store?.close();
  });

  it('keeps numbers numbers when another column changes, and a changed number a number', async () => {
    const { desk, key } = await makeDesk(store.db, { name: 'Van Hire' });
    const van = await addUnit(store.db, desk.id, {
      type: 'van',
      name: 'Van 1',
      fields: { seats: 3, load_kg: 1250.5, mot_due: '2027-01-01', reg: '0042' },
    });
    const owner = await ownerSession(h, store.db, desk.id);
    const form = await h.app.inject({ method: 'GET', url: `/units/${van.id}`, cookies: owner.cookies });
    expect(form.body).toContain('seats: 3\nload_kg: 1250.5\nmot_due: 2027-01-01\nreg: 0042');

    const saved = await owner.post(`/units/${van.id}`, {
      type: 'van',
      name: 'Van 1',
      fields: 'seats: 2\nload_kg: 1250.5\nmot_due: 2027-02-01\nreg: 0042\ncolour: 7',
    });
    expect(saved.statusCode).toBe(303);
    const units = (await h.call('GET', '/api/v1/units', { key })).json().data.items;
    const unit = units.find((u: { id: number }) => u.id === van.id);
    expect(unit.fields).toEqual({ seats: 2, load_kg: 1250.5, mot_due: '2027-02-01', reg: '0042', colour: '7' });
  });

  it('keeps columns a line cannot hold (a colon in a name, a value over lines, no name) when saved as drawn', async () => {
    const { desk, key } = await makeDesk(store.db, { name: 'Shop Lets' });
    // A business file may hold any of these (P-import-11).
    const columns = { 'lease: end': '2027-01-01', note: 'first line\nlease_end: 2027-01-01', '': 'x', seats: 3 };
    const shop = await addUnit(store.db, desk.id, { type: 'site', name: 'Shop', fields: columns });
    const owner = await ownerSession(h, store.db, desk.id);
    const form = await h.app.inject({ method: 'GET', url: `/units/${shop.id}`, cookies: owner.cookies });
    const drawn = /<textarea[^>]*name="fields"[^>]*>([\s\S]*?)<\/textarea>/.exec(form.body)?.[1];
    expect(drawn).toBeDefined();
    // As a browser sends a textarea: its text, with CR LF line ends.
    const text = drawn!
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&');
    const fieldsOf = async () =>
      (await h.call('GET', '/api/v1/units', { key })).json().data.items.find((u: { id: number }) => u.id === shop.id)
        .fields;

    const saved = await owner.post(`/units/${shop.id}`, {
      type: 'site',
      name: 'Shop',
      fields: text.replace(/\n/g, '\r\n'),
    });
    expect(saved.statusCode).toBe(303);
    expect(await fieldsOf()).toEqual(columns);

    // A line changed is read as typed; the others are kept as they were.
    const edited = await owner.post(`/units/${shop.id}`, {
      type: 'site',
      name: 'Shop',
      fields: text.replace('seats: 3', 'seats: 4\nkeys: 2'),
    });
    expect(edited.statusCode).toBe(303);
    expect(await fieldsOf()).toEqual({ ...columns, seats: 4, keys: '2' });
  });
});
