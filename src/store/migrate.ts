import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { StoreUnusable } from './location.ts';
import { storeTrouble } from './trouble.ts';
import type { Database } from './schema.ts';
import type { DialectName } from './dialect.ts';
import { initial } from './migrations/001_initial.ts';
import { assignee } from './migrations/002_assignee.ts';
import { runState } from './migrations/003_run_state.ts';
import { readIndexes } from './migrations/004_read_indexes.ts';
import { ownerSessions } from './migrations/005_owner_sessions.ts';
import { messageIds } from './migrations/006_message_ids.ts';
import { deskRails } from './migrations/007_desk_rails.ts';
import { mailReading } from './migrations/008_mail_reading.ts';
import { openCounts } from './migrations/009_open_counts.ts';
import { passOrder } from './migrations/010_pass_order.ts';
import { sparseIndexes } from './migrations/011_sparse_indexes.ts';
import { queueByStatus } from './migrations/012_queue_by_status.ts';
import { plainPlans } from './migrations/013_plain_plans.ts';
import { undatedLast } from './migrations/014_undated_last.ts';
import { addressesAnyCase } from './migrations/015_addresses_any_case.ts';
import { runningRuns } from './migrations/016_running_runs.ts';
import { sendFault } from './migrations/017_send_fault.ts';
import { postgresWidths } from './migrations/018_postgres_widths.ts';
import { mailSeenKept } from './migrations/019_mail_seen_kept.ts';
import { unsettledSends } from './migrations/020_unsettled_sends.ts';
import { mailStuck } from './migrations/021_mail_stuck.ts';
import { replyFrom } from './migrations/022_reply_from.ts';
import { blockLists } from './migrations/023_block_lists.ts';
import { addressesAsciiCase } from './migrations/024_addresses_ascii_case.ts';
import { draftsAndWatchRows } from './migrations/025_drafts_and_watch_rows.ts';
import { oneDraftARow } from './migrations/026_one_draft_a_row.ts';
import { cursorSecretMade } from './migrations/027_cursor_secret.ts';
import { idCeiling } from './migrations/028_id_ceiling.ts';
import { runDeadline } from './migrations/029_run_deadline.ts';
import { sendDeadline } from './migrations/030_send_deadline.ts';
import { messagesToGo } from './migrations/031_messages_to_go.ts';

/** Migrations take the dialect so that the one place with dialect differences can be consulted. */
export type DeskMigration = (dialect: DialectName) => Migration;

export const migrations: Record<string, DeskMigration> = {
  '001_initial': initial,
  '002_assignee': assignee,
  '003_run_state': runState,
  '004_read_indexes': readIndexes,
  '005_owner_sessions': ownerSessions,
  '006_message_ids': messageIds,
  '007_desk_rails': deskRails,
  '008_mail_reading': mailReading,
  '009_open_counts': openCounts,
  '010_pass_order': passOrder,
  '011_sparse_indexes': sparseIndexes,
  '012_queue_by_status': queueByStatus,
  '013_plain_plans': plainPlans,
  '014_undated_last': undatedLast,
  '015_addresses_any_case': addressesAnyCase,
  '016_running_runs': runningRuns,
  '017_send_fault': sendFault,
  '018_postgres_widths': postgresWidths,
  '019_mail_seen_kept': mailSeenKept,
  '020_unsettled_sends': unsettledSends,
  '021_mail_stuck': mailStuck,
  '022_reply_from': replyFrom,
  '023_block_lists': blockLists,
  '024_addresses_ascii_case': addressesAsciiCase,
  '025_drafts_and_watch_rows': draftsAndWatchRows,
  '026_one_draft_a_row': oneDraftARow,
  '027_cursor_secret': cursorSecretMade,
  '028_id_ceiling': idCeiling,
  '029_run_deadline': runDeadline,
  '030_send_deadline': sendDeadline,
  '031_messages_to_go': messagesToGo,
};

class InCodeProvider implements MigrationProvider {
  constructor(private readonly dialect: DialectName) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return Object.fromEntries(Object.entries(migrations).map(([name, m]) => [name, m(this.dialect)]));
  }
}

/** How long a process starting beside others waits for their upgrade of the database. */
const BUSY_UPGRADE_MS = 10 * 60_000;

/**
 * The migrations a database has had, or null when it has had none (a new database). An empty
 * record is a new database too: the migrator makes the record before the upgrade's transaction,
 * so a process starting beside one that is making the database finds it empty.
 */
async function applied(db: Kysely<Database>): Promise<string[] | null> {
  try {
    const rows = await sql<{ name: string }>`select name from desk_migrations`.execute(db);
    return rows.rows.length > 0 ? rows.rows.map((r) => r.name) : null;
  } catch {
    return null;
  }
}

/**
 * Brings the database to this build's schema. A database already there is only read, so a
 * command that opens it takes no write lock; one written by a later build is refused in words,
 * where the migrator would call it corrupted. Gives the changes made to a database that had
 * data in it before (none for a new one), so that the door can say it was upgraded.
 */
export async function migrateToLatest(
  db: Kysely<Database>,
  dialect: DialectName,
  location: string,
  upgrading?: (pending: string[]) => void,
): Promise<string[]> {
  const done = await applied(db);
  if (done) {
    const later = done.filter((name) => !Object.hasOwn(migrations, name)).sort();
    if (later.length > 0)
      throw new StoreUnusable(
        `The database at ${location} was written by a later version of Desk (its change ${later[later.length - 1]} is not known to this one); use that version, or a later one, to open it. Nothing was changed.`,
      );
    const pending = Object.keys(migrations).filter((name) => !done.includes(name));
    if (pending.length === 0) return [];
    // Said before it starts: on a large database an upgrade may take a while.
    upgrading?.(pending);
  }
  const migrator = new Migrator({
    db,
    provider: new InCodeProvider(dialect),
    migrationTableName: 'desk_migrations',
    migrationLockTableName: 'desk_migrations_lock',
    // Two versions were released with 009_open_counts before 008_mail_reading came in: their
    // databases lack 008 alone, and get it now, after changes with later names.
    allowUnorderedMigrations: true,
  });
  let { error, results } = await migrator.migrateToLatest();
  // Processes started together on one database upgrade it one at a time: one that found the
  // write lock held past the busy timeout tries again, and finds the work done or goes on with it.
  const until = Date.now() + BUSY_UPGRADE_MS;
  while (error && storeTrouble(error)?.kind === 'busy' && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 100 + Math.random() * 400));
    ({ error, results } = await migrator.migrateToLatest());
  }
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(
      `Database migration${failed ? ` ${failed.migrationName}` : ''} failed: ${(error as Error).message ?? String(error)}`,
    );
  }
  return done ? (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName) : [];
}
