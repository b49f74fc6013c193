// Whether a failed statement failed because the database could not be reached (PostgreSQL
// stopped, restarting, a network cut), not because of what it asked: the same statement will
// go through once the server is back, so it is a wait, not a fault.

/** Socket errors of a connection that cannot be made or was lost. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL's own: class 08 (connection exception), and a server shutting down or starting
 * up (57P01-57P03).
 */
const SERVER_CODE = /^(08[0-9A-Z]{3}|57P0[123])$/;

/** node-postgres says a lost connection in words only, without a code. */
const DRIVER_WORDS = /^(Connection terminated|Client has encountered a connection error)/;

export function databaseUnreachable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (SOCKET_CODES.has(code) || SERVER_CODE.test(code))) return true;
  return typeof message === 'string' && DRIVER_WORDS.test(message);
}
