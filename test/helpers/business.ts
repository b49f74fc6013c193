import type { Kysely } from 'kysely';
import type { Database } from '../../src/store/schema.ts';
import { TEST_NOW } from './app.ts';
import { insertConnection } from '../../src/store/repositories/connections.ts';

// Rows a business brings besides work: arrangements, units, watches, connections, domains
// and sections. Each factory takes only what the test cares about.

export async function addArrangement(
  db: Kysely<Database>,
  deskId: string,
  over: Partial<{
    name: string;
    counterparty: string | null;
    kind: string;
    status: string;
    starts_on: string | null;
    ends_on: string | null;
    renews_on: string | null;
    amount_cents: number | null;
    currency: string | null;
    contact_name: string | null;
    contact_email: string | null;
  }> = {},
) {
  return db
    .insertInto('arrangements')
    .values({
      desk_id: deskId,
      name: over.name ?? 'High Street lease',
      counterparty: over.counterparty === undefined ? 'Acme Estates' : over.counterparty,
      kind: over.kind ?? 'lease',
      status: over.status ?? 'active',
      starts_on: over.starts_on ?? null,
      ends_on: over.ends_on ?? null,
      renews_on: over.renews_on ?? null,
      amount_cents: over.amount_cents ?? null,
      currency: over.currency ?? null,
      contact_name: over.contact_name === undefined ? 'Jo Lane' : over.contact_name,
      contact_email: over.contact_email === undefined ? 'jo@acme-estates.test' : over.contact_email,
      created_at: TEST_NOW,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

let position = 0;
export async function addUnit(
  db: Kysely<Database>,
  deskId: string,
  over: Partial<{ type: string; name: string; fields: Record<string, unknown>; arrangement_id: number | null }> = {},
) {
  position += 1;
  return db
    .insertInto('units')
    .values({
      desk_id: deskId,
      type: over.type ?? 'site',
      name: over.name ?? '12 High Street',
      fields: JSON.stringify(over.fields ?? {}),
      arrangement_id: over.arrangement_id ?? null,
      position,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function addWatch(
  db: Kysely<Database>,
  deskId: string,
  over: Partial<{
    subject_type: string;
    field: string;
    label: string;
    lead_days: number;
    kind: string;
    action: string;
    every: string | null;
    priority: number;
  }> = {},
) {
  return db
    .insertInto('watches')
    .values({
      desk_id: deskId,
      subject_type: over.subject_type ?? 'site',
      field: over.field ?? 'lease_end',
      label: over.label ?? 'Lease renewal',
      lead_days: over.lead_days ?? 60,
      kind: over.kind ?? 'lease_renewal',
      action: over.action ?? 'commit',
      every: over.every === undefined ? null : over.every,
      priority: over.priority ?? 70,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function addConnection(
  db: Kysely<Database>,
  deskId: string,
  over: Partial<{
    provider: string;
    name: string;
    category: string;
    auth_type: string;
    status: string;
    config: Record<string, unknown>;
  }> = {},
) {
  // Through the repository, as every writer does, so the password is stored sealed.
  const id = await insertConnection(db, {
    desk_id: deskId,
    provider: over.provider ?? 'smtp',
    name: over.name ?? 'Shop mailbox',
    category: over.category ?? 'mail',
    auth_type: over.auth_type ?? 'token',
    status: over.status ?? 'connected',
    config: JSON.stringify(over.config ?? { host: '127.0.0.1', port: 2525, pass: 'hunter2' }),
    created_at: TEST_NOW,
  });
  return db.selectFrom('connections').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

export async function addDomain(
  db: Kysely<Database>,
  deskId: string,
  over: Partial<{
    name: string;
    registrar: string;
    status: string;
    renewal_on: string | null;
    amount_cents: number;
    currency: string;
    broker_name: string | null;
    notes: string | null;
  }> = {},
) {
  return db
    .insertInto('domains')
    .values({
      desk_id: deskId,
      name: over.name ?? 'example.test',
      registrar: over.registrar ?? 'Gandi',
      status: over.status ?? 'live',
      renewal_on: over.renewal_on ?? null,
      amount_cents: over.amount_cents ?? 1500,
      currency: over.currency ?? 'GBP',
      broker_name: over.broker_name ?? null,
      notes: over.notes ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function addSection(
  db: Kysely<Database>,
  deskId: string,
  over: Partial<{
    id: string;
    position: number;
    title: string;
    blurb: string;
    kind: string;
    kinds: string[];
    unit: string | null;
    fields: Array<{ name: string; hint: string }>;
    why: string;
  }> = {},
) {
  return db
    .insertInto('sections')
    .values({
      desk_id: deskId,
      id: over.id ?? 'obligations',
      position: over.position ?? 0,
      title: over.title ?? 'What keeps us open',
      blurb: over.blurb ?? 'Licences and filings',
      kind: over.kind ?? 'work',
      kinds: JSON.stringify(over.kinds ?? []),
      unit: over.unit ?? null,
      fields: JSON.stringify(over.fields ?? []),
      why: over.why ?? 'A lapsed licence closes the shop.',
      created_at: TEST_NOW,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}
