import { sql, type Kysely } from 'kysely';

// The database refusing one kind of statement, as a full disk or a broken constraint would, so a
// test can see what a write keeps when a later step of it fails.

export interface Refusal {
  /** A name of letters and underscores, for the trigger (and on PostgreSQL its function). */
  name: string;
  table: string;
  on: 'INSERT' | 'UPDATE';
  /** A condition on NEW (`NEW.kind = 'api_write'`); every such statement when absent. */
  when?: string;
}

/** Makes the database refuse the statements `r` names, with the message "NAME refused"; gives the undo. */
export async function refuse(
  db: Kysely<any>,
  dialect: 'sqlite' | 'postgres',
  r: Refusal,
): Promise<() => Promise<void>> {
  const name = sql.raw(r.name);
  const table = sql.raw(r.table);
  const on = sql.raw(r.on);
  const said = sql.lit(`${r.name} refused`);
  if (dialect === 'sqlite') {
    const when = r.when ? sql.raw(` WHEN ${r.when}`) : sql.raw('');
    await sql`CREATE TRIGGER ${name} BEFORE ${on} ON ${table}${when} BEGIN SELECT RAISE(ABORT, ${said}); END`.execute(
      db,
    );
    return async () => void (await sql`DROP TRIGGER ${name}`.execute(db));
  }
  const test = sql.raw(r.when ?? 'true');
  await sql`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN IF ${test} THEN RAISE EXCEPTION ${said}; END IF; RETURN NEW; END $$`.execute(db);
  await sql`CREATE TRIGGER ${name} BEFORE ${on} ON ${table} FOR EACH ROW EXECUTE FUNCTION ${name}()`.execute(db);
  return async () => {
    await sql`DROP TRIGGER ${name} ON ${table}`.execute(db);
    await sql`DROP FUNCTION ${name}()`.execute(db);
  };
}
