// Whether a failed statement failed for a reason of the store's own (another process's write
// lock, a full disk, a database that cannot be reached, a table out of ids) rather than because
// of what it asked: the same statement goes through once that has passed or been mended, so it
// is said as the store's state, not as a fault.

/**
 * Socket errors of a connection that cannot be made or was lost. ETIMEDOUT is also what a
 * PostgreSQL statement or connection past its deadline carries (postgres-statements.ts).
 */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  // This process, or the machine, has no file descriptor left for a new connection.
  'EMFILE',
  'ENFILE',
]);

/**
 * PostgreSQL's own: class 08 (connection exception), class 53 (the server is out of a resource:
 * connections at its limit, 53300, memory or disk), a server shutting down or starting up
 * (57P01-57P03), and a statement the server cancelled (57014): past its own statement_timeout,
 * which the deadline set a little after its own (postgres-statements.ts), or by an administrator.
 */
const SERVER_CODE = /^(08[0-9A-Z]{3}|53[0-9A-Z]{3}|57P0[123]|57014)$/;

/** node-postgres says a lost connection in words only, without a code. */
const DRIVER_WORDS = /^(Connection terminated|Client has encountered a connection error)/;

function databaseUnreachable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (SOCKET_CODES.has(code) || SERVER_CODE.test(code))) return true;
  return typeof message === 'string' && DRIVER_WORDS.test(message);
}

/** Why the store cannot take a statement now, said for whoever asked, and for the log. */
export interface StoreTrouble {
  kind: 'busy' | 'full' | 'readonly' | 'unreachable' | 'used_up';
  message: string;
  log: string;
  level: 'warn' | 'error';
}

export const UNREACHABLE_MESSAGE = 'The database cannot be reached; try again in a moment.';

/**
 * A statement the store refused for a reason of its own, not of what it asked: another
 * process's write holding SQLite's lock, a full disk, a database that cannot be reached. In
 * each, the transaction was undone whole, so nothing is half-written; null for any other fault.
 */
export function storeTrouble(err: unknown): StoreTrouble | null {
  const code = String((err as { code?: unknown } | null)?.code ?? '');
  // Another process held the write lock past the busy timeout (a large import, say), or, on
  // PostgreSQL, writes that waited on each other went on doing so however often begun again.
  if (code.startsWith('SQLITE_BUSY') || code === '40P01' || code === '40001')
    return {
      kind: 'busy',
      message: "The database is busy with another process's write; try again in a moment.",
      log: 'the database was busy',
      level: 'warn',
    };
  // The operator's to mend; the request may go through once there is room.
  if (code === 'SQLITE_FULL')
    return {
      kind: 'full',
      message: "The desk's disk is full, so nothing was written; try again once there is room on it.",
      log: 'the database disk is full',
      level: 'error',
    };
  // The file, or the folder its log is written in, became read-only for the user Desk runs as.
  if (code.startsWith('SQLITE_READONLY'))
    return {
      kind: 'readonly',
      message:
        'The database cannot be written: its file or folder is read-only for the user Desk runs as, so nothing was written. Let that user write both, then try again.',
      log: 'the database is read-only',
      level: 'error',
    };
  const usedUp = idsUsedUp(err);
  if (usedUp)
    return {
      kind: 'used_up',
      message: `The database has given out every id its ${usedUp} can have (the last is 2147483647), so nothing was written.`,
      log: `the database has no ids left for its ${usedUp}`,
      level: 'error',
    };
  if (databaseUnreachable(err))
    return {
      kind: 'unreachable',
      message: UNREACHABLE_MESSAGE,
      log: 'the database could not be reached',
      level: 'error',
    };
  return null;
}

/** What the numbered tables hold, in the words a person reads. */
const HOLDS: Record<string, string> = {
  api_keys: 'keys',
  work: 'work rows',
  timeline: 'history entries',
  activity: 'activity entries',
};

/**
 * The table that has given out its last id (migration 028 on SQLite, a serial's sequence at its
 * end on PostgreSQL, 2200H), or null.
 */
function idsUsedUp(err: unknown): string | null {
  if (!err || typeof err !== 'object') return null;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (typeof message !== 'string') return null;
  const table =
    code === 'SQLITE_CONSTRAINT_TRIGGER'
      ? /^ids used up: (\w+)$/.exec(message)?.[1]
      : code === '2200H'
        ? /sequence "(\w+)_id_seq"/.exec(message)?.[1]
        : undefined;
  return table ? (HOLDS[table] ?? table) : null;
}
