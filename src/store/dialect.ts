import { PostgresAdapter, sql, type ColumnDefinitionBuilder, type Kysely, type RawBuilder } from 'kysely';

// Every difference between SQLite and PostgreSQL that the store cares about lives here.

export type DialectName = 'sqlite' | 'postgres';

/** The type of an auto-numbered integer primary key. */
export function serialType(dialect: DialectName): 'integer' | 'serial' {
  return dialect === 'postgres' ? 'serial' : 'integer';
}

export function serialKey(dialect: DialectName) {
  return (col: ColumnDefinitionBuilder) =>
    dialect === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement();
}

/**
 * Whether a writer must lock a row it is about to change (SELECT ... FOR UPDATE) to keep a
 * concurrent writer out until commit. PostgreSQL runs writers side by side and needs it;
 * SQLite runs one writer at a time already.
 */
export function holdsRowLocks(dialect: DialectName): boolean {
  return dialect === 'postgres';
}

/**
 * A column's address with A to Z in small letters and nothing else changed, as `addressKey`
 * has it: SQLite's `lower` folds only these, PostgreSQL's every letter unless told the "C"
 * collation's rules.
 */
export function foldedAddress(db: Kysely<any>, column: string): RawBuilder<string> {
  return dialectOf(db) === 'postgres'
    ? sql<string>`lower(${sql.ref(column)} collate "C")`
    : sql<string>`lower(${sql.ref(column)})`;
}

/** Is this error a unique-constraint violation, on either database? */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string } | null;
  if (!e) return false;
  if (e.code === '23505') return true; // PostgreSQL unique_violation
  return (
    typeof e.code === 'string' && e.code.startsWith('SQLITE_CONSTRAINT') && /UNIQUE|PRIMARY KEY/.test(e.message ?? '')
  );
}

/** Is this error a foreign-key violation (a row pointing at one that is not there), on either database? */
export function isForeignKeyViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/** Which database a handle speaks to, for the repositories that are handed only the handle. */
export function dialectOf(db: Kysely<any>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
