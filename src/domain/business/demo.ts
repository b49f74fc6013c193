import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.ts';
import { findDeskByRef } from '../../store/repositories/desks.ts';
import { createKey, type CreatedKey } from '../keys/create.ts';
import { importBusinessText } from './import.ts';
import { PACKAGE_ROOT } from '../../root.ts';

// The bundled demo business: a believable bakery whose queue shows every action type. It is
// what a newcomer meets on first start and what `desk demo` brings in.

export const DEMO_FILE = path.join(PACKAGE_ROOT, 'examples', 'demo.yaml');
export const DEMO_SLUG = 'demo-bakery';

export interface DemoResult {
  desk: { id: string; slug: string; name: string };
  key: CreatedKey;
  /** False when the demo desk already existed and only a new key was made. */
  created: boolean;
  refs: Record<string, number>;
}

export async function importDemo(db: Kysely<Database>, opts: { now: Date; keyName?: string }): Promise<DemoResult> {
  const keyName = opts.keyName ?? 'demo';
  const existing = await findDeskByRef(db, DEMO_SLUG);
  if (existing) return keyForDemo(db, existing, opts.now, keyName);
  try {
    return await newDemo(db, opts.now, keyName);
  } catch (err) {
    // Another process made it between the look above and the import: a key for that one.
    const made = await findDeskByRef(db, DEMO_SLUG);
    if (!made) throw err;
    return keyForDemo(db, made, opts.now, keyName);
  }
}

async function keyForDemo(
  db: Kysely<Database>,
  desk: { id: string; slug: string; name: string },
  now: Date,
  keyName: string,
): Promise<DemoResult> {
  const key = await createKey(db, { deskId: desk.id, name: keyName, now: now.toISOString(), by: 'demo' });
  return { desk: { id: desk.id, slug: desk.slug, name: desk.name }, key, created: false, refs: {} };
}

/**
 * The demo desk made anew, or null when it is already there: a first start that lost the race
 * to another process on the same new database makes no key that nobody is shown.
 */
export async function importDemoIfAbsent(
  db: Kysely<Database>,
  opts: { now: Date; keyName: string },
): Promise<DemoResult | null> {
  if (await findDeskByRef(db, DEMO_SLUG)) return null;
  return newDemo(db, opts.now, opts.keyName);
}

async function newDemo(db: Kysely<Database>, now: Date, keyName: string): Promise<DemoResult> {
  const r = await importBusinessText(db, readFileSync(DEMO_FILE, 'utf8'), { now, keyName, source: DEMO_FILE });
  return { desk: r.desk, key: r.key!, created: true, refs: r.refs };
}
