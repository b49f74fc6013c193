import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DATABASE, loadConfig, misspeltSettings, ownerLinkCommand, publicOrigin, SETTINGS } from './config.ts';
import { clockFrom, FixedClock } from './domain/clock.ts';

describe('the clock a desk process runs on', () => {
  it('DESK_NOW starts the clock at that instant and time moves on from there', () => {
    const real = new FixedClock(new Date('2030-05-01T08:00:00.000Z'));
    const config = loadConfig({ DESK_NOW: '2026-11-22T10:00:00Z' });
    const clock = clockFrom(config.startsAt!, real);
    expect(clock.now().toISOString()).toBe('2026-11-22T10:00:00.000Z');
    real.advance(90_000);
    expect(clock.now().toISOString()).toBe('2026-11-22T10:01:30.000Z');
  });

  it('DESK_NOW must name its zone, and unset means the real time', () => {
    expect(() => loadConfig({ DESK_NOW: '2026-11-22T10:00:00' })).toThrow(/DESK_NOW must be an instant with its zone/);
    expect(() => loadConfig({ DESK_NOW: 'tomorrow' })).toThrow(/DESK_NOW/);
    // A day that does not exist is refused, not rolled over into the next month.
    expect(() => loadConfig({ DESK_NOW: '2027-02-29T10:00:00Z' })).toThrow(/DESK_NOW must be an instant/);
    // The desk's day, 12 hours behind UTC to 14 ahead, is one the desk keeps: 1900-01-01 to 9999-12-31.
    expect(loadConfig({ DESK_NOW: '9999-12-31T09:59:59.999Z' }).startsAt?.toISOString()).toBe(
      '9999-12-31T09:59:59.999Z',
    );
    expect(loadConfig({ DESK_NOW: '1900-01-01T12:00:00Z' }).startsAt?.toISOString()).toBe('1900-01-01T12:00:00.000Z');
    for (const late of ['9999-12-31T10:00:00Z', '9999-12-31T23:00:00-02:00', '1900-01-01T11:59:59Z'])
      expect(() => loadConfig({ DESK_NOW: late }), late).toThrow(
        /^DESK_NOW must fall on the days a desk keeps in every zone, from 1900-01-01T12:00:00Z to before 9999-12-31T10:00:00Z, got "/,
      );
    expect(() => loadConfig({ DESK_NOW: '2027-13-01T10:00:00Z' })).toThrow(/DESK_NOW must be an instant/);
    expect(loadConfig({ DESK_NOW: '2028-02-29T10:00:00Z' }).startsAt?.toISOString()).toBe('2028-02-29T10:00:00.000Z');
    expect(loadConfig({ DESK_NOW: '2026-11-22T10:00:00+14:00' }).startsAt!.toISOString()).toBe(
      '2026-11-21T20:00:00.000Z',
    );
    expect(loadConfig({}).startsAt).toBeNull();
  });

  it('DESK_LOG_LEVEL and DESK_LOG_FORMAT take only their words, and say which', () => {
    expect(loadConfig({}).logLevel).toBe('info');
    expect(loadConfig({ DESK_LOG_LEVEL: 'silent', DESK_LOG_FORMAT: 'json' })).toMatchObject({
      logLevel: 'silent',
      logFormat: 'json',
    });
    expect(() => loadConfig({ DESK_LOG_LEVEL: 'loud' })).toThrow(
      'DESK_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"',
    );
    expect(() => loadConfig({ DESK_LOG_FORMAT: 'xml' })).toThrow(
      'DESK_LOG_FORMAT must be one of json, pretty, got "xml"',
    );
  });

  it('DESK_RUN_PRIVATE_ADDRESSES is allow unless set to refuse, and takes nothing else', () => {
    expect(loadConfig({}).runPrivateAddresses).toBe('allow');
    expect(loadConfig({ DESK_RUN_PRIVATE_ADDRESSES: 'refuse' }).runPrivateAddresses).toBe('refuse');
    expect(() => loadConfig({ DESK_RUN_PRIVATE_ADDRESSES: 'no' })).toThrow(
      'DESK_RUN_PRIVATE_ADDRESSES must be one of allow, refuse, got "no"',
    );
  });

  it('DESK_CHROMIUM_SANDBOX is auto unless set to off, and takes nothing else', () => {
    expect(loadConfig({}).chromiumSandbox).toBe('auto');
    expect(loadConfig({ DESK_CHROMIUM_SANDBOX: 'off' }).chromiumSandbox).toBe('off');
    expect(() => loadConfig({ DESK_CHROMIUM_SANDBOX: 'no' })).toThrow(
      'DESK_CHROMIUM_SANDBOX must be one of auto, off, got "no"',
    );
  });

  it('DESK_TRUSTED_PROXIES lists addresses, networks and the named ranges, and nothing else', () => {
    expect(loadConfig({}).trustedProxies).toEqual([]);
    expect(loadConfig({ DESK_TRUSTED_PROXIES: ' 127.0.0.1, 10.0.0.0/8,fd00::/8 ,loopback' }).trustedProxies).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      'fd00::/8',
      'loopback',
    ]);
    for (const bad of ['nginx', '10.0.0.0/33', '10.0.0.0/8/1', '::1/129', '10.0.0.1,', '*', '0.0.0.0/0', '::/0'])
      expect(() => loadConfig({ DESK_TRUSTED_PROXIES: bad }), bad).toThrow(
        /^DESK_TRUSTED_PROXIES must list the proxies' addresses/,
      );
  });

  it('the intervals of the server\'s own passes are at least a second, so "60" is not taken as 60 ms', () => {
    for (const name of ['DESK_WATCH_INTERVAL', 'DESK_WORK_INTERVAL', 'DESK_MAIL_POLL']) {
      expect(() => loadConfig({ [name]: '60' })).toThrow(
        `${name} must be at least 1s; a number alone is milliseconds (60s is a minute), got "60"`,
      );
      expect(() => loadConfig({ [name]: '0' })).toThrow(/at least 1s/);
    }
    expect(loadConfig({ DESK_MAIL_POLL: '60s', DESK_WORK_INTERVAL: '1000' })).toMatchObject({
      mailPollMs: 60_000,
      workIntervalMs: 1000,
    });
  });

  it('a time limit on a run, a chat answer or the mail server is more than 0, which would end each at once', () => {
    expect(() => loadConfig({ DESK_RUN_TIMEOUT: '0' })).toThrow(
      'DESK_RUN_TIMEOUT must be more than 0: it is the longest a run may take, got "0"',
    );
    expect(() => loadConfig({ DESK_CHAT_TIMEOUT: '0s' })).toThrow(/^DESK_CHAT_TIMEOUT must be more than 0/);
    expect(() => loadConfig({ DESK_MAIL_TIMEOUT: '0.0001s' })).toThrow(/^DESK_MAIL_TIMEOUT is less than 1 ms/);
    expect(loadConfig({ DESK_RUN_TIMEOUT: '200ms', DESK_DRAIN_TIMEOUT: '0' })).toMatchObject({
      runTimeoutMs: 200,
      drainTimeoutMs: 0,
    });
  });

  it("every duration is at most 576h, beyond which Node's timers fire at once", () => {
    for (const name of [
      'DESK_WATCH_INTERVAL',
      'DESK_WORK_INTERVAL',
      'DESK_MAIL_POLL',
      'DESK_RUN_TIMEOUT',
      'DESK_DRAIN_TIMEOUT',
      'DESK_CHAT_TIMEOUT',
      'DESK_MAIL_TIMEOUT',
      'DESK_DATABASE_TIMEOUT',
    ]) {
      expect(() => loadConfig({ [name]: '1000h' })).toThrow(`${name} must be at most 576h (24 days), got "1000h"`);
      expect(() => loadConfig({ [name]: '576h' })).not.toThrow();
    }
    expect(loadConfig({ DESK_WORK_INTERVAL: '576h' }).workIntervalMs).toBe(576 * 3_600_000);
  });

  it('DESK_DATABASE_TIMEOUT is a duration, 30 s unless set', () => {
    expect(loadConfig({}).databaseTimeoutMs).toBe(30_000);
    expect(loadConfig({ DESK_DATABASE_TIMEOUT: '2m' }).databaseTimeoutMs).toBe(120_000);
    expect(loadConfig({ DESK_DATABASE_TIMEOUT: '0' }).databaseTimeoutMs).toBe(0);
    expect(() => loadConfig({ DESK_DATABASE_TIMEOUT: 'soon' })).toThrow(/DESK_DATABASE_TIMEOUT must be a duration/);
    // Less than a millisecond is not "no limit".
    expect(() => loadConfig({ DESK_DATABASE_TIMEOUT: '0.4' })).toThrow(
      'DESK_DATABASE_TIMEOUT is less than 1 ms, which would be read as 0; got "0.4"',
    );
    expect(loadConfig({ DESK_DATABASE_TIMEOUT: '0.0' }).databaseTimeoutMs).toBe(0);
  });

  it('a count is written in digits: 0x10 and 1e3 are refused by name, not read as 16 and 1000', () => {
    expect(loadConfig({ DESK_RATE_LIMIT: ' 30 ' }).rateLimitPerMinute).toBe(30);
    for (const raw of ['0x3', '1e3', '3.0', '-1', 'ten'])
      expect(() => loadConfig({ DESK_RATE_LIMIT: raw }), raw).toThrow(
        `DESK_RATE_LIMIT must be a whole number of at least 1, got "${raw}"`,
      );
  });

  it('DESK_DATABASE_URL is read without the spaces around it, and blank is the default', () => {
    expect(loadConfig({ DESK_DATABASE_URL: '   ' }).database).toBe(DEFAULT_DATABASE);
    expect(loadConfig({ DESK_DATABASE_URL: ' postgres://u@h/db ' }).database).toBe('postgres://u@h/db');
  });

  it('names no address on port 0, which only desk serve can resolve', () => {
    const config = loadConfig({ DESK_PORT: '0' });
    expect(() => publicOrigin(config)).toThrow(/^DESK_PORT is 0 \(any free port\)/);
    expect(publicOrigin(config, 18555)).toBe('http://127.0.0.1:18555');
    expect(publicOrigin(loadConfig({ DESK_PORT: '0', DESK_PUBLIC_URL: 'https://desk.example.com' }))).toBe(
      'https://desk.example.com',
    );
  });

  it('DESK_PUBLIC_URL with a query, a fragment or a user name is refused: the sign-in link goes after it', () => {
    for (const raw of ['https://x.example/?a=1', 'https://x.example/#frag', 'https://x.example/?'])
      expect(() => loadConfig({ DESK_PUBLIC_URL: raw }), raw).toThrow(
        `DESK_PUBLIC_URL is the address the desk is reached at, with no query, fragment or user name, such as https://desk.example.com; got "${raw}"`,
      );
    // A password is not said back: the refusal goes to the service's log.
    expect(() => loadConfig({ DESK_PUBLIC_URL: 'https://me:pw@x.example' })).toThrow(
      'DESK_PUBLIC_URL is the address the desk is reached at, with no query, fragment or user name, such as https://desk.example.com; got "https://…@x.example"',
    );
    // The screen goes from the host's root: a path would make links whose pages post outside it.
    for (const raw of ['https://x.example/desk/', 'https://x.example/desk', 'https://x.example/%20'])
      expect(() => loadConfig({ DESK_PUBLIC_URL: raw }), raw).toThrow(
        `DESK_PUBLIC_URL is the address of the host the desk answers at the root of, with no path, such as https://desk.example.com: its screen's pages and forms go from the root (/sign-in, /assets/…), so behind a proxy give it a host of its own rather than a path; got "${raw}"`,
      );
    for (const raw of ['https://x.example/', 'https://x.example//'])
      expect(loadConfig({ DESK_PUBLIC_URL: raw }).publicUrl, raw).toBe('https://x.example');
    // However the scheme is written, the address is kept as a URL reads it, and https stays https.
    for (const raw of ['HTTPS://Desk.Example.com', 'https:desk.example.com', 'https:/desk.example.com/'])
      expect(loadConfig({ DESK_PUBLIC_URL: raw }).publicUrl, raw).toBe('https://desk.example.com');
  });

  it('DESK_REDIS_URL is a Redis URL or a socket path, refused by name otherwise, with no password said back', () => {
    expect(loadConfig({}).redisUrl).toBeNull();
    expect(loadConfig({ DESK_REDIS_URL: ' redis://:pw@127.0.0.1:6379/2 ' }).redisUrl).toBe(
      'redis://:pw@127.0.0.1:6379/2',
    );
    expect(loadConfig({ DESK_REDIS_URL: 'rediss://cache.example:6380' }).redisUrl).toBe('rediss://cache.example:6380');
    expect(loadConfig({ DESK_REDIS_URL: '/run/redis/redis.sock' }).redisUrl).toBe('/run/redis/redis.sock');
    for (const [raw, shown] of [
      ['redis://:pw@127.0.0.1:6379x', 'redis://…@127.0.0.1:6379x'],
      ['notaurl', 'notaurl'],
      ['http://127.0.0.1:6379', 'http://127.0.0.1:6379'],
      ['redis://', 'redis://'],
    ])
      expect(() => loadConfig({ DESK_REDIS_URL: raw }), raw).toThrow(
        `DESK_REDIS_URL must be a Redis URL such as redis://127.0.0.1:6379 (rediss:// for TLS), or the path of its socket; got "${shown}"`,
      );
  });

  it('DESK_PORT is a port number, refused by name otherwise', () => {
    expect(loadConfig({ DESK_PORT: '18080' }).port).toBe(18080);
    expect(loadConfig({ DESK_PORT: '0' }).port).toBe(0);
    for (const raw of ['70000', '-1', '80.5', 'http'])
      expect(() => loadConfig({ DESK_PORT: raw }), raw).toThrow(
        `DESK_PORT must be a port number from 0 to 65535, got "${raw}"`,
      );
  });
});

describe('a DESK_ variable that is not a setting', () => {
  it('is told from a setting by a list that holds every variable loadConfig reads', () => {
    const read = new Set<string>();
    const env = new Proxy({} as NodeJS.ProcessEnv, {
      get: (_target, name) => {
        if (typeof name === 'string') read.add(name);
        return undefined;
      },
    });
    loadConfig(env);
    expect([...read].filter((n) => n.startsWith('DESK_')).sort()).toEqual([...SETTINGS].sort());
  });

  it('is named, with the setting it was likely meant to be, when it is a letter or two away from one', () => {
    expect(
      misspeltSettings({
        DESK_DATABSE_URL: '/tmp/x.db',
        DESK_PROT: '8081',
        DESK_LOGLEVEL: 'debug',
        DESK_PORT: '8080',
        DESK_TEST_DATABASE_URL: 'postgres://localhost/t',
        HOME: '/root',
      }),
    ).toEqual([
      'DESK_DATABSE_URL is not a setting, and is ignored; did you mean DESK_DATABASE_URL?',
      'DESK_PROT is not a setting, and is ignored; did you mean DESK_PORT?',
      'DESK_LOGLEVEL is not a setting, and is ignored; did you mean DESK_LOG_LEVEL?',
    ]);
  });
});

describe('the command a signed-out sign-in page prints', () => {
  it('names a PostgreSQL database by its variable, never by its host, user or password', () => {
    const pg = loadConfig({ DESK_DATABASE_URL: 'postgres://desk@db.test:5432/shop?password=hunter2' });
    const shown = ownerLinkCommand(pg, 'YOUR-DESK', 8080, 'public');
    expect(shown).toBe('npx desk owner link --desk YOUR-DESK --db "$DESK_DATABASE_URL"');
    // On the owner's own terminal too, while it holds a password: shown hidden, it would be typed back as ***.
    expect(ownerLinkCommand(pg, 'bakery', 8080)).toBe('npx desk owner link --desk bakery --db "$DESK_DATABASE_URL"');
    // Without one it is the database itself.
    expect(
      ownerLinkCommand(loadConfig({ DESK_DATABASE_URL: 'postgres://desk@db.test:5432/shop' }), 'bakery', 8080),
    ).toBe("npx desk owner link --desk bakery --db 'postgres://desk@db.test:5432/shop'");
    // A file is named as it is, on either.
    const file = loadConfig({ DESK_DATABASE_URL: './data/shop.db' });
    expect(ownerLinkCommand(file, 'YOUR-DESK', 8080, 'public')).toBe(
      "npx desk owner link --desk YOUR-DESK --db './data/shop.db'",
    );
  });
});

describe('settings with spaces around them, or a quote in them', () => {
  it('reads a variable or a flag without the spaces around it, as a quoted shell line gives it', () => {
    expect(loadConfig({ DESK_HOST: ' 127.0.0.1 ' }).host).toBe('127.0.0.1');
    expect(loadConfig({ DESK_NOW: ' 2026-11-22T10:00:00Z\n' }).startsAt?.toISOString()).toBe(
      '2026-11-22T10:00:00.000Z',
    );
    expect(loadConfig({}, { database: ' ./data/shop.db\n', host: ' 0.0.0.0' })).toMatchObject({
      database: './data/shop.db',
      host: '0.0.0.0',
    });
    // Spaces alone are no database: kept, to be refused as they are.
    expect(loadConfig({}, { database: '  ' }).database).toBe('  ');
  });

  it('prints a path holding a quote so that a shell reads the same path back', () => {
    const file = loadConfig({ DESK_DATABASE_URL: "./O'Brien's.db" });
    const shown = ownerLinkCommand(file, 'bakery', 8080);
    expect(shown).toBe("npx desk owner link --desk bakery --db './O'\\''Brien'\\''s.db'");
    const read = execFileSync('sh', ['-c', `printf %s ${shown.split('--db ')[1]}`], { encoding: 'utf8' });
    expect(read).toBe("./O'Brien's.db");
  });
});
