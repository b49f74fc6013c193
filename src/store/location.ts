import os from 'node:os';
import path from 'node:path';

// Where a store lives, told apart and printed without its password; no driver is loaded here,
// so the CLI can say where its data is before it opens anything.

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/** The file a SQLite target names: a path, or a path written as `file:PATH`. */
export function sqliteFile(target: string): string {
  const file = target.startsWith('file:') ? target.slice(5) : target;
  // `~/desk.db` means the home folder, as the shell reads it; where nothing expands it (a quoted
  // line, a .env file, a service's Environment=) it would otherwise make a folder named `~` here.
  return file === '~' || file.startsWith('~/') ? path.join(os.homedir(), file.slice(1)) : file;
}

/** The query parameters the PostgreSQL driver reads a password from, as well as `user:pass@`. */
const PASSWORD_PARAMETERS = ['password', 'sslpassword'];

export function redact(url: string): string {
  if (!isPostgresUrl(url)) return url;
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    for (const name of [...u.searchParams.keys()])
      if (PASSWORD_PARAMETERS.includes(name.toLowerCase())) u.searchParams.set(name, '***');
    return u.toString();
  } catch {
    return 'postgres://…';
  }
}

/** What to say of a database that holds no Desk data: mistyped, or Desk not yet started on it. */
export function noDeskDatabase(location: string): string {
  return `No database at ${location} (DESK_DATABASE_URL or --db). Start the server, or run desk demo or desk import, to make one.`;
}

/**
 * The database named cannot be used as it is: a mistyped path or URL, a file that is not a
 * database, a server that does not answer (`unreachable`). The person running Desk can fix it.
 */
export class StoreUnusable extends Error {
  constructor(
    message: string,
    readonly unreachable = false,
  ) {
    super(message);
  }
}
