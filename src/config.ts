import { isIP } from 'node:net';
import path from 'node:path';
import { FIRST_DAY, LAST_DAY } from './domain/dates.ts';
import { isPostgresUrl, redact } from './store/location.ts';
import { STATEMENT_TIMEOUT_MS } from './store/postgres-statements.ts';

// Configuration is read once, from the environment and command-line flags, into a frozen object.

/** A setting in the environment that Desk cannot use: the person running it can fix it. */
export class ConfigError extends Error {}

export interface Config {
  /** A postgres:// URL or a SQLite file path. */
  database: string;
  host: string;
  port: number;
  runTimeoutMs: number;
  /** DESK_DRAIN_TIMEOUT: how long a stopping server lets requests in flight finish before runs are recorded as interrupted. */
  drainTimeoutMs: number;
  chatTimeoutMs: number;
  mailTimeoutMs: number;
  /** DESK_DATABASE_TIMEOUT: how long a PostgreSQL statement may go unanswered before it fails and its connection is dropped; 0 for no limit. */
  databaseTimeoutMs: number;
  chromiumPath: string;
  /** `auto`: runs' browser in its sandbox, unless Desk runs as root; `off`: never (DESK_CHROMIUM_SANDBOX). */
  chromiumSandbox: 'auto' | 'off';
  /**
   * DESK_RUN_PRIVATE_ADDRESSES: whether a run's browser may open pages on the server's own
   * machine and private networks (`allow`, the default) or not (`refuse`, for a server that
   * hosts several owners' desks). Link-local addresses are refused either way.
   */
  runPrivateAddresses: 'allow' | 'refuse';
  watchIntervalMs: number;
  /** DESK_WORK_INTERVAL: how often the server lets each desk work its list on its own. */
  workIntervalMs: number;
  /** How often `desk serve` reads the desks' mailboxes (DESK_MAIL_POLL). */
  mailPollMs: number;
  llmUrl: string | null;
  llmModel: string;
  llmKey: string | null;
  logLevel: string;
  /** DESK_LOG_FORMAT: `json` or `pretty`; unset means pretty on a terminal, JSON otherwise. */
  logFormat: string | undefined;
  bodyLimitBytes: number;
  rateLimitPerMinute: number;
  /** Refused keys a client address may send per minute before it is answered 429. */
  refusedKeysPerMinute: number;
  /** DESK_SECRET_KEY: the master key that seals connection secrets (32 bytes, hex or base64). */
  secretKey: string | null;
  /** A redis:// URL: rate-limit buckets shared by every server process. */
  redisUrl: string | null;
  /**
   * DESK_TRUSTED_PROXIES: the addresses of reverse proxies in front of the server, whose
   * X-Forwarded-For names the client; empty means the header is never believed.
   */
  trustedProxies: string[];
  /** The instant the clock starts from (DESK_NOW), for rehearsals and tests; null means the real time. */
  startsAt: Date | null;
  /** Where people reach the screen (DESK_PUBLIC_URL), for sign-in links; null means host and port. */
  publicUrl: string | null;
}

export const DEFAULT_DATABASE = path.join('data', 'desk.db');

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  // Digits only: Number() would also take 0x10 and 1e3, which no one means by a count.
  const n = /^\s*\d+\s*$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min)
    throw new ConfigError(`${name} must be a whole number of at least ${min}, got "${raw}"`);
  return n;
}

/** A port as --port takes it: 0 (any free one) to 65535. */
function port(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) > 65535)
    throw new ConfigError(`${name} must be a port number from 0 to 65535, got "${raw}"`);
  return Number(raw);
}

/** Durations accept plain milliseconds or a number with s, m or h. */
function duration(env: NodeJS.ProcessEnv, name: string, fallbackMs: number, leastMs = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallbackMs;
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(raw.trim());
  if (!m) throw new ConfigError(`${name} must be a duration such as 600s, 10m or 600000, got "${raw}"`);
  const scale = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] ?? 'ms'] ?? 1;
  const ms = Math.round(Number(m[1]) * scale);
  // Less than a millisecond is not 0: where 0 means "no limit", it would mean the opposite.
  if (ms === 0 && Number(m[1]) > 0)
    throw new ConfigError(`${name} is less than 1 ms, which would be read as 0; got "${raw}"`);
  // An interval of "60" is 60 ms: a server reading its mailboxes that often would do little else.
  if (ms < leastMs)
    throw new ConfigError(
      `${name} must be at least ${leastMs / 1000}s; a number alone is milliseconds (60s is a minute), got "${raw}"`,
    );
  // Node's timers hold at most about 24.8 days and fire at once on anything longer: a long
  // interval would make the server pass in a tight loop rather than rarely.
  if (ms > MOST_MS) throw new ConfigError(`${name} must be at most 576h (24 days), got "${raw}"`);
  return ms;
}

const MOST_MS = 24 * 24 * 3_600_000;

/** A time limit on work the desk does: 0 would end every such piece of work at once. */
function timeLimit(env: NodeJS.ProcessEnv, name: string, fallbackMs: number, what: string): number {
  const ms = duration(env, name, fallbackMs);
  if (ms === 0)
    throw new ConfigError(`${name} must be more than 0: it is the longest ${what} may take, got "${env[name]}"`);
  return ms;
}

/** The least interval between the server's own passes. */
const LEAST_INTERVAL_MS = 1000;

/** One of a few words, or the fallback when unset. */
function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, words: readonly T[], fallback: T | undefined) {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (!(words as readonly string[]).includes(raw))
    throw new ConfigError(`${name} must be one of ${words.join(', ')}, got "${raw}"`);
  return raw as T;
}

/** An ISO 8601 instant with a zone (2026-11-22T10:00:00Z), or unset. */
function instant(env: NodeJS.ProcessEnv, name: string): Date | null {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return null;
  const at = new Date(raw);
  // Date rolls an impossible day over (2027-02-29 is 1 March): a pinned clock must be the day it says.
  const day = /^\s*(\d{4}-\d{2}-\d{2})/.exec(raw)?.[1];
  const midnight = new Date(`${day}T00:00:00Z`);
  const real = day !== undefined && !Number.isNaN(midnight.getTime()) && midnight.toISOString().slice(0, 10) === day;
  if (!/(Z|[+-]\d\d:?\d\d)$/i.test(raw.trim()) || Number.isNaN(at.getTime()) || !real) {
    throw new ConfigError(`${name} must be an instant with its zone, such as 2026-11-22T10:00:00Z, got "${raw}"`);
  }
  // A desk's own day is the instant's date in its zone, 12 hours behind UTC to 14 ahead: every
  // desk's day must be one the desk keeps.
  const first = Date.parse(`${FIRST_DAY}T12:00:00Z`);
  const end = Date.parse(`${LAST_DAY}T10:00:00Z`);
  if (at.getTime() < first || at.getTime() >= end)
    throw new ConfigError(
      `${name} must fall on the days a desk keeps in every zone, from ${FIRST_DAY}T12:00:00Z to before ${LAST_DAY}T10:00:00Z, got "${raw}"`,
    );
  return at;
}

/** A URL as a refusal echoes it: whatever stands before an @ after the scheme (a user and password) left out. */
function shownUrl(raw: string): string {
  return raw.replace(/^([^/?#]*\/\/)[^/?#]*@/, '$1…@');
}

/** Where the request limits are shared: a redis:// or rediss:// URL, or a socket's path. */
function redisUrl(env: NodeJS.ProcessEnv): string | null {
  const raw = env.DESK_REDIS_URL?.trim();
  if (!raw) return null;
  if (raw.startsWith('/')) return raw;
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {}
  if (url === null || (url.protocol !== 'redis:' && url.protocol !== 'rediss:') || !url.hostname)
    throw new ConfigError(
      `DESK_REDIS_URL must be a Redis URL such as redis://127.0.0.1:6379 (rediss:// for TLS), or the path of its socket; got "${shownUrl(raw)}"`,
    );
  return raw;
}

function publicUrl(env: NodeJS.ProcessEnv): string | null {
  const raw = env.DESK_PUBLIC_URL?.trim();
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`DESK_PUBLIC_URL must be a URL such as https://desk.example.com, got "${shownUrl(raw)}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(`DESK_PUBLIC_URL must start with http:// or https://, got "${shownUrl(raw)}"`);
  // The sign-in link is this address with /sign-in?token=... after it: a query or a fragment
  // here would swallow the token, and a user name and password would be sent to the browser.
  if (raw.includes('?') || raw.includes('#') || url.username || url.password)
    throw new ConfigError(
      `DESK_PUBLIC_URL is the address the desk is reached at, with no query, fragment or user name, such as https://desk.example.com; got "${shownUrl(raw)}"`,
    );
  // The screen's pages, forms, assets and redirects name their paths from the host's root
  // (/sign-in, /assets/…): under a proxy's path a sign-in link would open a page whose button
  // posts outside it.
  if (url.pathname.replace(/\/+$/, '') !== '')
    throw new ConfigError(
      `DESK_PUBLIC_URL is the address of the host the desk answers at the root of, with no path, such as https://desk.example.com: its screen's pages and forms go from the root (/sign-in, /assets/…), so behind a proxy give it a host of its own rather than a path; got "${shownUrl(raw)}"`,
    );
  // Kept as the URL reads it (`HTTPS://Desk.example.com`, `https:desk.example.com` are
  // https://desk.example.com): the screen's cookies are Secure when it starts https://.
  return url.origin;
}

const PROXY_WORDS = ['loopback', 'linklocal', 'uniquelocal'];

/** Addresses and networks (10.0.0.0/8), or loopback, linklocal and uniquelocal, with commas between. */
function trustedProxies(env: NodeJS.ProcessEnv): string[] {
  const raw = env.DESK_TRUSTED_PROXIES?.trim();
  if (!raw) return [];
  const entries = raw.split(',').map((e) => e.trim());
  for (const e of entries) {
    const [address = '', bits, extra] = e.split('/');
    const family = isIP(address);
    const fits =
      PROXY_WORDS.includes(e) ||
      (family !== 0 &&
        extra === undefined &&
        (bits === undefined || (/^\d+$/.test(bits) && Number(bits) >= 1 && Number(bits) <= (family === 4 ? 32 : 128))));
    if (!fits)
      throw new ConfigError(
        `DESK_TRUSTED_PROXIES must list the proxies' addresses or networks with commas between, such as 127.0.0.1,10.0.0.0/8 (or loopback, linklocal, uniquelocal); "${e}" is none of those (a network of every address, /0, would believe any caller)`,
      );
  }
  return entries;
}

/** The origin sign-in links point at: DESK_PUBLIC_URL, else the address the server listens on. */
export function publicOrigin(config: Readonly<Config>, port: number = config.port): string {
  if (config.publicUrl) return config.publicUrl;
  // Port 0 is any free port `desk serve` picks: no address made before it listens can name it.
  if (port === 0)
    throw new ConfigError(
      'DESK_PORT is 0 (any free port), so no address can name the port the server listens on: give --port with the port desk serve printed, or set DESK_PUBLIC_URL.',
    );
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** Every environment variable loadConfig reads. */
export const SETTINGS = [
  'DESK_DATABASE_URL',
  'DESK_HOST',
  'DESK_PORT',
  'DESK_PUBLIC_URL',
  'DESK_RUN_TIMEOUT',
  'DESK_DRAIN_TIMEOUT',
  'DESK_CHAT_TIMEOUT',
  'DESK_MAIL_TIMEOUT',
  'DESK_DATABASE_TIMEOUT',
  'DESK_CHROMIUM_PATH',
  'DESK_CHROMIUM_SANDBOX',
  'DESK_RUN_PRIVATE_ADDRESSES',
  'DESK_WATCH_INTERVAL',
  'DESK_WORK_INTERVAL',
  'DESK_MAIL_POLL',
  'DESK_LLM_URL',
  'DESK_LLM_MODEL',
  'DESK_LLM_KEY',
  'DESK_LOG_LEVEL',
  'DESK_LOG_FORMAT',
  'DESK_RATE_LIMIT',
  'DESK_REFUSED_KEY_LIMIT',
  'DESK_REDIS_URL',
  'DESK_TRUSTED_PROXIES',
  'DESK_SECRET_KEY',
  'DESK_NOW',
] as const;

function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/**
 * DESK_ variables a letter or two away from a setting: a misspelt DESK_DATABASE_URL would
 * otherwise start the server on the default database without a word. Other DESK_ names (a
 * test suite's own) are left alone.
 */
export function misspeltSettings(env: NodeJS.ProcessEnv): string[] {
  const known: readonly string[] = SETTINGS;
  const said: string[] = [];
  for (const name of Object.keys(env)) {
    if (!name.startsWith('DESK_') || known.includes(name)) continue;
    const near = SETTINGS.map((s) => ({ s, d: editDistance(name, s) })).sort((x, y) => x.d - y.d)[0]!;
    if (near.d <= 2) said.push(`${name} is not a setting, and is ignored; did you mean ${near.s}?`);
  }
  return said;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** The port `desk serve` listens on when neither `--port` nor DESK_PORT says. */
export const DEFAULT_PORT = 8080;

export function loadConfig(env: NodeJS.ProcessEnv = process.env, flags: Partial<Config> = {}): Readonly<Config> {
  const config: Config = {
    // Spaces around it are none of it (a quoted shell line), as for every other setting.
    database: env.DESK_DATABASE_URL?.trim() || DEFAULT_DATABASE,
    host: env.DESK_HOST?.trim() || '127.0.0.1',
    port: port(env, 'DESK_PORT', DEFAULT_PORT),
    runTimeoutMs: timeLimit(env, 'DESK_RUN_TIMEOUT', 10 * 60_000, 'a run'),
    drainTimeoutMs: duration(env, 'DESK_DRAIN_TIMEOUT', 30_000),
    chatTimeoutMs: timeLimit(env, 'DESK_CHAT_TIMEOUT', 240_000, 'a chat answer'),
    mailTimeoutMs: timeLimit(env, 'DESK_MAIL_TIMEOUT', 20_000, 'the mail server to answer'),
    databaseTimeoutMs: duration(env, 'DESK_DATABASE_TIMEOUT', STATEMENT_TIMEOUT_MS),
    chromiumPath: env.DESK_CHROMIUM_PATH?.trim() || '/usr/bin/chromium',
    chromiumSandbox: oneOf(env, 'DESK_CHROMIUM_SANDBOX', ['auto', 'off'], 'auto') ?? 'auto',
    runPrivateAddresses: oneOf(env, 'DESK_RUN_PRIVATE_ADDRESSES', ['allow', 'refuse'], 'allow') ?? 'allow',
    watchIntervalMs: duration(env, 'DESK_WATCH_INTERVAL', 60_000, LEAST_INTERVAL_MS),
    workIntervalMs: duration(env, 'DESK_WORK_INTERVAL', 60_000, LEAST_INTERVAL_MS),
    mailPollMs: duration(env, 'DESK_MAIL_POLL', 60_000, LEAST_INTERVAL_MS),
    llmUrl: env.DESK_LLM_URL?.trim() || null,
    llmModel: env.DESK_LLM_MODEL?.trim() || 'gpt-4o-mini',
    llmKey: env.DESK_LLM_KEY?.trim() || null,
    logLevel: oneOf(env, 'DESK_LOG_LEVEL', LOG_LEVELS, 'info') ?? 'info',
    logFormat: oneOf(env, 'DESK_LOG_FORMAT', ['json', 'pretty'], undefined),
    bodyLimitBytes: 1024 * 1024,
    rateLimitPerMinute: int(env, 'DESK_RATE_LIMIT', 600, 1),
    refusedKeysPerMinute: int(env, 'DESK_REFUSED_KEY_LIMIT', 20, 1),
    redisUrl: redisUrl(env),
    trustedProxies: trustedProxies(env),
    secretKey: env.DESK_SECRET_KEY?.trim() || null,
    startsAt: instant(env, 'DESK_NOW'),
    publicUrl: publicUrl(env),
  };
  // A flag's spaces are none of it either (`--db " ./desk.db"`); one of spaces alone stays to be refused.
  for (const [k, v] of Object.entries(flags))
    if (v !== undefined) (config as unknown as Record<string, unknown>)[k] = typeof v === 'string' ? v.trim() || v : v;
  return Object.freeze(config);
}

/**
 * `--db …` when the database is not the default, so a printed command reaches the same one. A
 * URL with a password is named by the variable that holds it: printed with the password hidden,
 * it would be typed back with `***` for one.
 */
export function dbFlag(config: Readonly<Config>): string {
  if (config.database === DEFAULT_DATABASE) return '';
  const shown = redact(config.database);
  // Quoted for a POSIX shell: a quote in the path closes the quotes, is given escaped, and opens them again.
  return shown === config.database ? ` --db '${shown.replaceAll("'", "'\\''")}'` : ' --db "$DESK_DATABASE_URL"';
}

/** ` --port N` where a printed command needs it to reach a server on `port`; nothing for the default. */
export function portFlag(port: number | undefined): string {
  return !port || port === DEFAULT_PORT ? '' : ` --port ${port}`;
}

/**
 * `npx desk owner link` as it must be typed for a link to `desk` on this server (DESK_PUBLIC_URL
 * gives its address). On a page anyone who reaches the server can read (`shown: 'public'`), a
 * PostgreSQL database is named by the variable that holds it, never by its host, user and name.
 */
export function ownerLinkCommand(
  config: Readonly<Config>,
  desk: string,
  port: number | undefined,
  shown: 'public' | 'owner' = 'owner',
): string {
  const db = shown === 'public' && isPostgresUrl(config.database) ? ' --db "$DESK_DATABASE_URL"' : dbFlag(config);
  return `npx desk owner link --desk ${desk}${db}${config.publicUrl ? '' : portFlag(port)}`;
}

/** How to start the server on this database and port, as a printed hint says it. */
export function serveCommand(config: Readonly<Config>): string {
  const port = portFlag(config.port);
  return config.database === DEFAULT_DATABASE
    ? `npm start${port ? ` --${port}` : ''}`
    : `npx desk serve${dbFlag(config)}${port}`;
}
