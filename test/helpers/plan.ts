import { CompiledQuery, type Kysely, sql } from 'kysely';

// What each planner says it will do with a statement, for the tests that hold a read to its
// index: a plan that fell back to another index or to the table would still answer, only ever
// slower as the queue grows.

let prepared = 0;
const literal = (v: unknown) => (typeof v === 'number' ? String(v) : `'${String(v).replaceAll("'", "''")}'`);

/** What each planner says it will do with a statement. */
export async function plan(db: Kysely<any>, dialect: string, q: CompiledQuery): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const lines = (rows: unknown[]) =>
      (rows as Record<string, unknown>[]).map((row) => String(row['QUERY PLAN'] ?? row.detail)).join('\n');
    if (dialect !== 'postgres')
      return lines((await trx.executeQuery(CompiledQuery.raw(`explain query plan ${q.sql}`, [...q.parameters]))).rows);
    // Tables this small are cheaper to read whole; the question is whether the index can serve.
    // The plan is the one for any value of the parameters, as a named statement's becomes.
    await sql`set local enable_seqscan = off`.execute(trx);
    await sql`set local plan_cache_mode = force_generic_plan`.execute(trx);
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
