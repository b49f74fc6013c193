import type { Kysely } from 'kysely';
import type { Database, WorkRow } from '../../src/store/schema.ts';
import { addDays } from '../../src/domain/dates.ts';
import { makeDesk, makeDraft, makeWork } from '../helpers/factories.ts';
import { addArrangement, addConnection, addDomain, addSection, addUnit, addWatch } from '../helpers/business.ts';

// A bakery desk as an owner would have it on 2026-11-22: rows overdue, due this week, out with
// somebody, needing a person, done; a lease with a renewal date; domains unpaid; a mailbox;
// grants for reach_out and chase. The chat tests ask it questions and check the answers
// against these rows.

export const TODAY = '2026-11-22';
const day = (n: number) => addDays(TODAY, n);

export type BakeryRows = Record<
  'vat' | 'flour' | 'oven' | 'lease' | 'hygiene' | 'menu' | 'council' | 'alarm' | 'sweep' | 'allergen',
  WorkRow
>;

export async function bakeryDesk(db: Kysely<Database>, opts: { mailbox?: 'connected' | 'error' | 'none' } = {}) {
  const d = await makeDesk(db, { name: 'Corner Bakery Ltd', grants: ['reach_out', 'chase'] });
  const deskId = d.desk.id;
  await db.updateTable('desks').set({ broker: 'Sedo' }).where('id', '=', deskId).execute();

  const lease = await addArrangement(db, deskId, {
    name: 'High Street lease',
    counterparty: 'Acme Estates',
    kind: 'lease',
    renews_on: day(40),
    ends_on: day(45),
  });
  const supply = await addArrangement(db, deskId, {
    name: 'Flour supply',
    counterparty: 'Mill Co',
    kind: 'supply',
    renews_on: day(100),
    contact_name: 'Mill Co',
    contact_email: 'accounts@mill.test',
  });
  const site = await addUnit(db, deskId, {
    type: 'site',
    name: '12 High Street',
    fields: { lease_end: day(45), size_m2: 80 },
    arrangement_id: lease.id,
  });
  await addWatch(db, deskId, {
    subject_type: 'site',
    field: 'lease_end',
    label: 'Lease renewal',
    lead_days: 30,
    kind: 'lease_renewal',
    action: 'commit',
    every: '365',
  });
  await addSection(db, deskId, { id: 'obligations', position: 0, kind: 'work', kinds: ['licence_renewal', 'filing'] });
  await addSection(db, deskId, {
    id: 'sites',
    position: 1,
    title: 'Sites',
    blurb: 'Where we trade',
    kind: 'units',
    unit: 'site',
    fields: [{ name: 'lease_end', hint: 'Date the lease ends' }],
    why: 'Every date hangs off a site.',
  });

  const rows: BakeryRows = {
    // Overdue; file is not granted and there is nobody to write to and no playbook -> answer.
    vat: await makeWork(db, deskId, {
      title: 'File VAT return',
      kind: 'filing',
      class: 'file',
      due_date: day(-1),
      priority: 80,
    }),
    // Due in 5 days with a prepared message, money -> approve (needs the owner).
    flour: await makeWork(db, deskId, {
      title: 'Pay the flour invoice',
      kind: 'invoice',
      class: 'money',
      due_date: day(5),
      contact_name: 'Mill Co',
      contact_email: 'accounts@mill.test',
      arrangement_id: supply.id,
    }),
    // Out with Sam for 12 days, chase granted -> nudge the desk may do itself.
    oven: await makeWork(db, deskId, {
      title: 'Get the oven repair quote',
      kind: 'repair',
      class: 'chase',
      due_date: day(2),
      priority: 60,
      contact_name: 'Sam Oven',
      contact_email: 'sam@ovens.test',
      waiting_on: 'Sam Oven',
      waiting_since: day(-12),
    }),
    // A signature, in 30 days -> own (needs the owner, but not this week).
    lease: await makeWork(db, deskId, {
      title: 'Sign the lease renewal',
      kind: 'lease_renewal',
      class: 'sign',
      needs_person: 1,
      due_date: day(30),
      unit_id: site.id,
      arrangement_id: lease.id,
    }),
    // A failure, in 20 days -> fix.
    hygiene: await makeWork(db, deskId, {
      title: 'Renew the food hygiene certificate',
      kind: 'licence_renewal',
      due_date: day(20),
      last_error: 'Portal rejected the upload: file too large',
    }),
    // reach_out granted with somebody to write to -> run: the desk does it.
    menu: await makeWork(db, deskId, {
      title: 'Send the new menu to the printer',
      kind: 'printing',
      class: 'reach_out',
      due_date: day(3),
      contact_name: 'Print Shop',
      contact_email: 'orders@print.test',
    }),
    // Overdue and out with the council for 2 days -> wait.
    council: await makeWork(db, deskId, {
      title: 'Chase the council about the bin permit',
      kind: 'permit',
      class: 'reach_out',
      due_date: day(-3),
      contact_name: 'Council',
      contact_email: 'bins@council.test',
      waiting_on: 'Council',
      waiting_since: day(-2),
    }),
    // Overdue but done: never named as overdue.
    alarm: await makeWork(db, deskId, {
      title: 'Renew the alarm contract',
      kind: 'contract',
      class: 'commit',
      status: 'done',
      due_date: day(-10),
      closed_at: '2026-11-20T09:00:00.000Z',
    }),
    // commit not granted, somebody to write to, in 4 days -> prepare (needs the owner).
    sweep: await makeWork(db, deskId, {
      title: 'Book the chimney sweep',
      kind: 'maintenance',
      class: 'commit',
      due_date: day(4),
      contact_name: 'Sooty Sweeps',
      contact_email: 'book@sooty.test',
    }),
    // No date, nobody to write to -> answer (needs the owner, some day).
    allergen: await makeWork(db, deskId, { title: 'Update the allergen sheet', kind: 'compliance' }),
  };
  await makeDraft(db, deskId, rows.flour.id, {
    subject: 'Invoice 4471',
    body: 'Paying on Friday.',
    to: 'accounts@mill.test',
  });

  await addDomain(db, deskId, { name: 'cornerbakery.test', status: 'live', amount_cents: 1500, renewal_on: day(90) });
  await addDomain(db, deskId, { name: 'old-bakery.test', status: 'unpaid', amount_cents: 1200, renewal_on: day(10) });
  await addDomain(db, deskId, { name: 'cornerbakery.shop', status: 'collections', amount_cents: 2500 });
  await addDomain(db, deskId, { name: 'bakery-usa.test', status: 'unpaid', amount_cents: 999, currency: 'USD' });

  const mailbox = opts.mailbox ?? 'connected';
  if (mailbox !== 'none')
    await addConnection(db, deskId, { name: 'Shop mailbox', provider: 'smtp', category: 'mail', status: mailbox });
  await addConnection(db, deskId, {
    name: 'Tax portal',
    provider: 'gov-portal',
    category: 'filing',
    auth_type: 'login',
    status: 'connected',
  });
  return { ...d, rows, lease, supply, site };
}
