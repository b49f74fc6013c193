import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { LINK_MINUTES } from '../../src/domain/owner/link-url.ts';
import {
  createSignInLink,
  deskForSession,
  redeemSignInLink,
  SESSION_IDLE_DAYS,
  signOutDesk,
} from '../../src/domain/owner/sign-in.ts';
import { startServer } from '../../src/server.ts';
import { TEST_NOW } from '../helpers/app.ts';
import { desk } from '../helpers/cli.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { makeDesk } from '../helpers/factories.ts';
import { CHROMIUM_PRESENT, launch } from './helpers.ts';

// Owner sign-in: one-time links, sessions that lapse when idle, and the CLI that makes them.

const at = (ms: number) => new Date(new Date(TEST_NOW).getTime() + ms);
const DAY = 24 * 60 * 60 * 1000;

describe.each(DIALECTS)('owner sign-in ($name)', ({ open }) => {
  let store: TestStore;
  beforeAll(async () => {
    store = await open();
  });
  afterAll(async () => {
    await store.close();
  });

  it('a link works once, until 15 minutes after it was made; only hashes are stored', async () => {
    const { desk: d } = await makeDesk(store.db);
    const a = await createSignInLink(store.db, d.id, at(0));
    expect(a.expiresAt).toBe(at(LINK_MINUTES * 60_000).toISOString());
    const first = await redeemSignInLink(store.db, a.token, at(LINK_MINUTES * 60_000 - 1));
    expect(first.ok).toBe(true);
    expect(await redeemSignInLink(store.db, a.token, at(0))).toEqual({ ok: false, reason: 'used' });

    const b = await createSignInLink(store.db, d.id, at(0));
    expect(await redeemSignInLink(store.db, b.token, at(LINK_MINUTES * 60_000))).toEqual({
      ok: false,
      reason: 'expired',
    });
    expect(await redeemSignInLink(store.db, 'not-a-token', at(0))).toEqual({ ok: false, reason: 'unknown' });

    const stored = JSON.stringify([
      await store.db.selectFrom('owner_links').selectAll().execute(),
      await store.db.selectFrom('owner_sessions').selectAll().execute(),
    ]);
    expect(stored).not.toContain(a.token);
    expect(stored).not.toContain(first.ok ? first.session : 'x');
  });

  it('a session lapses after 30 idle days, each use restarts the count, and signing out ends every session of the desk', async () => {
    const { desk: d } = await makeDesk(store.db);
    const link = await createSignInLink(store.db, d.id, at(0));
    const r = await redeemSignInLink(store.db, link.token, at(0));
    if (!r.ok) throw new Error('sign-in failed');
    expect((await deskForSession(store.db, r.session, at(SESSION_IDLE_DAYS * DAY - 1)))?.id).toBe(d.id);
    // Used just now, so another 30 days from here.
    expect((await deskForSession(store.db, r.session, at(2 * SESSION_IDLE_DAYS * DAY - 2)))?.id).toBe(d.id);
    expect(await deskForSession(store.db, r.session, at(3 * SESSION_IDLE_DAYS * DAY))).toBeNull();

    // A use within a minute of the last is not written again: a page view need not be a write.
    const seen = async () =>
      (await store.db.selectFrom('owner_sessions').select('last_seen_at').where('desk_id', '=', d.id).execute()).map(
        (x) => x.last_seen_at,
      );
    const l1 = await createSignInLink(store.db, d.id, at(0));
    const s1 = await redeemSignInLink(store.db, l1.token, at(0));
    if (!s1.ok) throw new Error('sign-in failed');
    expect(await deskForSession(store.db, s1.session, at(59_999))).not.toBeNull();
    expect(await seen()).toEqual([at(0).toISOString()]);
    expect(await deskForSession(store.db, s1.session, at(60_000))).not.toBeNull();
    expect(await seen()).toEqual([at(60_000).toISOString()]);
    expect(await signOutDesk(store.db, d.id, at(60_000))).toEqual({ sessions: 1, links: 0 });

    const l2 = await createSignInLink(store.db, d.id, at(0));
    const s2 = await redeemSignInLink(store.db, l2.token, at(0));
    if (!s2.ok) throw new Error('sign-in failed');
    expect(await signOutDesk(store.db, d.id, at(1))).toEqual({ sessions: 1, links: 0 });
    expect(await deskForSession(store.db, s2.session, at(1))).toBeNull();
  });

  it('`desk owner link --json` prints {"url"} at DESK_PUBLIC_URL or the configured host and port; `desk owner signout` ends sessions', async () => {
    const { desk: d } = await makeDesk(store.db);
    const r = await desk(store.target, 'owner', 'link', '--desk', d.slug, '--json');
    expect(r.code).toBe(0);
    expect(Object.keys(r.json())).toEqual(['url']);
    expect(r.json().url).toMatch(/^http:\/\/127\.0\.0\.1:8080\/sign-in\?token=[A-Za-z0-9_-]{43}$/);
    const human = await desk(store.target, 'owner', 'link', '--desk', d.slug);
    expect(human.out).toMatch(/within 15 minutes/);
    const onPort = await desk(store.target, 'owner', 'link', '--desk', d.slug, '--port', '18555', '--json');
    expect(onPort.json().url).toMatch(/^http:\/\/127\.0\.0\.1:18555\/sign-in\?token=/);
    const badPort = await desk(store.target, 'owner', 'link', '--desk', d.slug, '--port', 'eighty');
    expect(badPort.err).toBe('desk: --port "eighty" is not a port number (1-65535).\n');
    const missing = await desk(store.target, 'owner', 'link', '--desk', 'no-such-desk');
    expect(missing.code).toBe(1);
    // A link not used yet stops working too: it would start a session again.
    const out = await desk(store.target, 'owner', 'signout', '--desk', d.slug);
    expect(out.out).toBe(`Signed out 0 sessions of ${d.slug}, and cancelled 3 sign-in links not used yet.\n`);
    const token = new URL(r.json().url).searchParams.get('token')!;
    // A minute on (the command's clock runs on from DESK_NOW), well inside the link's 15 minutes.
    expect(await redeemSignInLink(store.db, token, at(60_000))).toEqual({ ok: false, reason: 'cancelled' });
    const again = await desk(store.target, 'owner', 'signout', '--desk', d.slug, '--json');
    // Each command's clock starts at DESK_NOW, so the second may count the same links again.
    expect(again.json()).toEqual({ desk: d.slug, ended: 0, links_cancelled: expect.any(Number) });
  });
});

describe('the public origin of sign-in links', () => {
  it('is DESK_PUBLIC_URL without its trailing slash, and a value that is not http(s) is refused', async () => {
    const { publicOrigin } = await import('../../src/config.ts');
    expect(publicOrigin(loadConfig({ DESK_PUBLIC_URL: 'https://desk.example.com/' }))).toBe('https://desk.example.com');
    expect(publicOrigin(loadConfig({ DESK_HOST: '0.0.0.0', DESK_PORT: '9000' }))).toBe('http://localhost:9000');
    expect(() => loadConfig({ DESK_PUBLIC_URL: 'ftp://x' })).toThrow(/DESK_PUBLIC_URL/);
  });
});

describe.runIf(CHROMIUM_PRESENT)('the first start, as a new owner meets it', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-first-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('prints a sign-in link beside the key that opens the demo desk in a browser; `desk owner signout` then signs the browser out', async () => {
    let printed = '';
    const db = path.join(dir, 'desk.db');
    const server = await startServer(
      loadConfig({ DESK_DATABASE_URL: db, DESK_PORT: '0', DESK_NOW: TEST_NOW, DESK_LOG_LEVEL: 'warn' }),
      { out: (t) => (printed += `${t}\n`) },
    );
    const browser = await launch();
    try {
      expect(printed).toMatch(/Its key, shown once: desk_/);
      expect(printed).toContain(`Made the key file ${db}.key, which seals the passwords of the desk's connections`);
      const url = /Sign in to its screen \(once, within 15 minutes\): (\S+)/.exec(printed)?.[1];
      expect(url).toMatch(new RegExp(`^${server.url}/sign-in\\?token=`));
      const page = await browser.newPage();
      const complaints: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') complaints.push(m.text());
      });
      await page.goto(url!);
      await page.getByRole('button', { name: 'Sign in to Corner Bakery (demo)' }).click();
      await page.getByRole('heading', { level: 1, name: 'Corner Bakery (demo)', exact: true }).waitFor();
      await page.getByRole('link', { name: 'File VAT return' }).waitFor();
      await page.waitForLoadState('networkidle');
      // Nothing the page asks for fails, the browser's own icon request included.
      expect(complaints).toEqual([]);

      expect((await desk(db, 'owner', 'signout', '--desk', 'demo-bakery')).out).toBe(
        'Signed out 1 session of demo-bakery.\n',
      );
      await page.reload();
      await page.getByRole('heading', { name: 'Sign in to your desk' }).waitFor();
      // It says how to get a new link to this server: its database and its port.
      const port = new URL(server.url).port;
      await expect(page.locator('pre code').textContent()).resolves.toBe(
        `npx desk owner link --desk YOUR-DESK --db '${db}' --port ${port}`,
      );
    } finally {
      await browser.close();
      await server.close();
    }
  });
});
