import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { AxeBuilder } from '@axe-core/playwright';
import type { Result } from 'axe-core';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { realEngine } from '../../src/container.ts';
import { FixedClock } from '../../src/domain/clock.ts';
import type { Deps } from '../../src/domain/context.ts';
import { signInUrl } from '../../src/domain/owner/link-url.ts';
import { createSignInLink } from '../../src/domain/owner/sign-in.ts';
import { chromiumAvailable } from '../../src/adapters/chromium/runner.ts';
import { buildApp } from '../../src/http/app.ts';
import type { FastifyInstance } from 'fastify';
import { TEST_NOW } from '../helpers/app.ts';
import type { TestStore } from '../helpers/db.ts';
import { signInWithLink } from '../helpers/sign-in.ts';

// The screen's tests drive Debian's Chromium against a real server on a free port.

export const CHROMIUM = process.env.DESK_CHROMIUM_PATH || '/usr/bin/chromium';
export const CHROMIUM_PRESENT = chromiumAvailable(CHROMIUM);
export const SHOTS = path.join(process.cwd(), 'test-output', 'screen');

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
}

export interface ScreenServer {
  app: FastifyInstance;
  deps: Deps;
  clock: FixedClock;
  base: string;
  /** A fresh one-time sign-in link for a desk. */
  link(deskId: string): Promise<string>;
  close(): Promise<void>;
}

export async function startScreenServer(store: TestStore): Promise<ScreenServer> {
  const config = loadConfig({ DESK_DATABASE_URL: store.target }, { rateLimitPerMinute: 100_000 });
  const clock = new FixedClock(new Date(TEST_NOW));
  const deps: Deps = { store, clock, config, engine: realEngine(config) };
  const app = await buildApp(deps);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return {
    app,
    deps,
    clock,
    base,
    async link(deskId) {
      const { token } = await createSignInLink(store.db, deskId, clock.now());
      return signInUrl(base, token);
    },
    close: () => app.close(),
  };
}

/**
 * No serious or critical accessibility violation on the page as it stands; and its colours keep
 * their contrast on the dark page too, which a system set to dark gives the owner.
 */
export async function expectAccessible(page: Page): Promise<void> {
  const said = (violations: Result[]) =>
    violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  expect(said((await new AxeBuilder({ page }).analyze()).violations)).toEqual([]);
  await page.emulateMedia({ colorScheme: 'dark' });
  try {
    // Pico fades links and buttons to their new colours: read them once the fades are done.
    await page.evaluate(async () => {
      await new Promise((painted) => requestAnimationFrame(() => requestAnimationFrame(painted)));
      await Promise.all(document.getAnimations().map((a) => a.finished));
    });
    const dark = await new AxeBuilder({ page }).withRules(['color-contrast']).analyze();
    expect(said(dark.violations).map((v) => `dark: ${v}`)).toEqual([]);
  } finally {
    await page.emulateMedia({ colorScheme: null });
  }
}

/**
 * A fresh browser context signed in to a desk through a one-time link, on the desk's front
 * page: a person who has just followed the link `desk owner link` printed.
 */
export async function signIn(
  browser: Browser,
  server: ScreenServer,
  deskId: string,
  o: { width?: number; timeout?: number; acceptDownloads?: boolean; script?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: { width: o.width ?? 1280, height: 900 },
    acceptDownloads: o.acceptDownloads,
    javaScriptEnabled: o.script ?? true,
  });
  context.setDefaultTimeout(o.timeout ?? 15_000);
  const page = await context.newPage();
  await agreeToLink(page, await server.link(deskId));
  await expect.poll(() => page.url()).toBe(`${server.base}/`);
  return { context, page };
}

// A file's tests run once for each store and show the same pages; one picture of each is enough.
const written = new Set<string>();

/** A sign-in link opened in the browser, and agreed to on the page it opens. */
export async function agreeToLink(page: Page, link: string): Promise<void> {
  await page.goto(link);
  // A browser already signed in to the link's desk is signed in again at once.
  if (new URL(page.url()).pathname === '/sign-in') await page.getByRole('button', { name: /^Sign in to / }).click();
}

/**
 * The page at desktop and phone widths, written under test-output/screen (the first time a
 * run shows it); at each width it scrolls down, never sideways.
 */
export async function screenshots(page: Page, name: string, widths: readonly number[] = [1440, 390]): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  const size = page.viewportSize() ?? { width: 1440, height: 900 };
  for (const width of widths) {
    await page.setViewportSize({ width, height: 900 });
    // A page laid out again for the new width is painted on a later frame; a capture before it
    // showed the lower half blank.
    await page.evaluate(() => new Promise((painted) => requestAnimationFrame(() => requestAnimationFrame(painted))));
    const file = path.join(SHOTS, `${name}-${width}.png`);
    if (!written.has(file)) {
      await page.screenshot({ path: file, fullPage: true });
      written.add(file);
    }
    await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(width);
  }
  await page.setViewportSize(size);
}

/**
 * A signed-in owner as a program would be one, without a browser: the session a sign-in link
 * starts, a page's CSRF token, and a way to send a form with both.
 */
export async function ownerSession(server: Pick<ScreenServer, 'app' | 'clock'>, db: TestStore['db'], deskId: string) {
  const { token } = await createSignInLink(db, deskId, server.clock.now());
  const jar = await signInWithLink(server.app, token);
  const page = await server.app.inject({ method: 'GET', url: '/keys', cookies: jar, headers: { accept: 'text/html' } });
  const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1];
  if (!csrf) throw new Error('no CSRF token on /keys');
  const cookies = { ...jar, ...Object.fromEntries(page.cookies.map((c) => [c.name, c.value])) };
  return {
    cookies,
    csrf,
    post: (url: string, fields: Record<string, string>) =>
      server.app.inject({
        method: 'POST',
        url,
        cookies,
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
        payload: new URLSearchParams({ _csrf: csrf, ...fields }).toString(),
      }),
  };
}
