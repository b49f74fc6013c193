import { CompiledQuery, type Kysely, sql } from 'kysely';

// What each planner says it will do with a statement, for the tests that hold a read to its
// index: a plan that fell back to another index or to the table would still answer, only ever
// slower as the queue grows.

let prepared = 0;
const literal = (v: unknown) => (typeof v === 'number' ? String(v) : `'${String(v).replaceAll("'", "''")}'`);

/**
 * What each planner says it will do with a statement. On PostgreSQL, by default the plan kept
 * for any values of the parameters, with the table assumed too large to read whole; `custom`
 * asks for the plan made for these very values, as a statement's first runs get.
 */
export async function plan(
  db: Kysely<any>,
  dialect: string,
  q: CompiledQuery,
  opts: { custom?: boolean } = {},
): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const lines = (rows: unknown[]) =>
      (rows as Record<string, unknown>[]).map((row) => String(row['QUERY PLAN'] ?? row.detail)).join('\n');
    if (dialect !== 'postgres')
      return lines((await trx.executeQuery(CompiledQuery.raw(`explain query plan ${q.sql}`, [...q.parameters]))).rows);
    if (opts.custom) await sql`set local plan_cache_mode = force_custom_plan`.execute(trx);
    else {
      await sql`set local enable_seqscan = off`.execute(trx);
      await sql`set local plan_cache_mode = force_generic_plan`.execute(trx);
    }
    const name = `plan_of_${++prepared}`;
    await trx.executeQuery(CompiledQuery.raw(`prepare ${name} as ${q.sql}`));
    try {
      const args = q.parameters.map(literal).join(', ');
      const r = await trx.executeQuery(CompiledQuery.raw(`explain execute ${name}(${args})`));
      return lines(r.rows);
    } finally {
      await trx.executeQuery(CompiledQuery.raw(`deallocate ${name}`));
    }
  });
}
