// The real playbook runner: drives a headless Chromium through a playbook's steps.
// One browser with a profile of its own per run, so nothing (cookies, storage) carries between runs.
import { accessSync, constants, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page, Request } from 'playwright-core';
import {
  gotoFault,
  PLACEHOLDER,
  stepTextFault,
  STEP_LIMIT_MS,
  STEP_NAMES,
  secretValues,
  type PlaybookRequest,
  type PlaybookResult,
  type PlaybookStep,
} from '../../domain/playbooks.ts';
import { masker } from '../../domain/mask.ts';
import type { PlaybookRunner } from '../../domain/ports.ts';
import { clipped, cutAt, longerThan, storable } from '../../domain/text.ts';
import { refusalWords, type PrivateAddresses, type Resolve } from './addresses.ts';
import { type Gate, openGate } from './gate.ts';

export const CHROMIUM_ARGS = [
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/**
 * The run's profile: WebRTC may send no UDP but through a proxy, and the gate carries none, so
 * a page cannot reach around the gate with it. Read by the browser itself, for every frame.
 */
const PREFERENCES = {
  webrtc: {
    ip_handling_policy: 'disable_non_proxied_udp',
    multiple_routes_enabled: false,
    nonproxied_udp_enabled: false,
  },
};

/** Profiles are named by the process that made them, so a later process can tell one left behind. */
const PROFILE = /^desk-run-(\d+)-/;

/**
 * How long the browser may take to start, apart from the run's own limit. Cut at the run's
 * limit, a start was given up with the browser still coming up, which then wrote its profile
 * again after the run had removed it; a run whose time runs out first lets the start finish,
 * then closes the browser and removes the profile once it has exited.
 */
const LAUNCH_LIMIT_MS = 60_000;

/**
 * Removes the profiles of runs whose process is gone: one killed outright (SIGKILL, a power
 * cut) could not remove its own, and a profile keeps what the portal set at sign-in. A profile
 * of a process still running, this one's or another server's, is left alone.
 */
export function sweepLeftovers(): void {
  let names: string[];
  try {
    names = readdirSync(tmpdir());
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(PROFILE.exec(name)?.[1]);
    if (!pid || pid === process.pid || isRunning(pid)) continue;
    rmSync(path.join(tmpdir(), name), { recursive: true, force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: a process of another user holds the number, so it is running.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A fresh profile for one run, holding PREFERENCES. */
function freshProfile(): string {
  const dir = mkdtempSync(path.join(tmpdir(), `desk-run-${process.pid}-`));
  mkdirSync(path.join(dir, 'Default'));
  writeFileSync(path.join(dir, 'Default', 'Preferences'), JSON.stringify(PREFERENCES));
  return dir;
}

/** WebRTC's constructors, taken out of a page before its own scripts run (as text, so no build step can change it). */
const NO_WEBRTC =
  'for (const name of Object.getOwnPropertyNames(window)) if (/^(webkit)?RTC/.test(name)) delete window[name];';

/** Why the gate did not let a step's page open, in words: refused by where a run may go, or not reachable. */
type Blocked = { refused: string } | { unreachable: string };

/** Where messages a portal shows to its user usually live. */
const MESSAGE_SELECTOR =
  '[role=alert], .error, .error-message, .error-summary, .govuk-error-summary, .govuk-error-message, .alert-danger, .alert-error';

/** The most characters a `read` step keeps, as for a note. */
const READ_MAX = 4000;

/** How long a page must sit loaded and unchanged, showing a message, before `expect_text` gives up early. */
const SETTLE_MS = 400;
const POLL_MS = 100;

/** Playwright's own time-out, known by name so that Playwright need not be loaded to ask. */
function isTimeout(err: unknown): boolean {
  return err instanceof Error && err.name === 'TimeoutError';
}

/**
 * How the element a step gave up on is on the page, as the rest of "it is on the page, but …":
 * hidden or disabled for the step's time, a list without the option asked for, or there and
 * still not usable (covered by another, or not editable). Null when nothing on the page matches.
 */
async function foundAs(page: Page, selector: string, option: string | null, waited: string): Promise<string | null> {
  return withinLook(lookFor(page, selector, option, waited));
}

async function lookFor(page: Page, selector: string, option: string | null, waited: string): Promise<string | null> {
  try {
    if ((await page.locator(selector).count()) === 0) return null;
    const first = page.locator(selector).first();
    if (!(await first.isVisible())) return `stayed hidden for ${waited}`;
    if (!(await first.isEnabled({ timeout: 1_000 }))) return `stayed disabled for ${waited}`;
    if (
      option !== null &&
      (await first.evaluate(
        (el, v) =>
          el instanceof HTMLSelectElement && !Array.from(el.options).some((o) => o.value === v || o.label === v),
        option,
      ))
    )
      return `has no option ${quote(option)}`;
    return `could not be used for ${waited} (covered by something else, or not editable)`;
  } catch {
    return null;
  }
}

/** True when `path` is an existing, executable file. */
export function chromiumAvailable(path: string): boolean {
  try {
    const st = statSync(path);
    if (!st.isFile() || (st.mode & 0o111) === 0) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

type Action =
  | { kind: 'goto'; url: string }
  | { kind: 'fill'; selector: string; value: string }
  | { kind: 'select'; selector: string; value: string }
  | { kind: 'check'; selector: string }
  | { kind: 'click'; selector: string }
  | { kind: 'wait_for'; selector: string }
  | { kind: 'expect_text'; text: string }
  | { kind: 'fail_if_text'; text: string }
  | { kind: 'read'; selector: string; as: string };

interface Prepared {
  action: Action;
  /** What the step does, secrets masked. */
  description: string;
}

/** A step failure with a sentence meant for the owner (not yet masked). */
class StepFailure extends Error {}
/** The overall time limit ran out. */
class OutOfTime extends Error {}

function lookup(vars: PlaybookRequest['vars'], path: string): { found: true; value: string } | { found: false } {
  const parts = path.split('.');
  if (parts.length < 2 || parts.some((p) => p === '')) return { found: false };
  let cur: unknown = vars;
  for (const part of parts) {
    if (cur === null || typeof cur !== 'object' || !Object.hasOwn(cur, part)) return { found: false };
    cur = (cur as Record<string, unknown>)[part];
  }
  if (typeof cur === 'string') return { found: true, value: cur };
  if (typeof cur === 'number' || typeof cur === 'boolean' || typeof cur === 'bigint')
    return { found: true, value: String(cur) };
  if (cur instanceof Date && !Number.isNaN(cur.getTime())) return { found: true, value: cur.toISOString() };
  return { found: false };
}

function fill(template: string, vars: PlaybookRequest['vars'], where: string): string {
  return template.replace(PLACEHOLDER, (whole, path: string) => {
    const hit = lookup(vars, path);
    if (!hit.found) throw new StepFailure(`${where} uses ${whole}, which has no value to put in its place.`);
    return hit.value;
  });
}

function quote(s: string): string {
  return `"${s}"`;
}

function describe(a: Action): string {
  switch (a.kind) {
    case 'goto':
      return `goto ${a.url}`;
    case 'fill':
      return `fill ${a.selector} with ${a.value}`;
    case 'select':
      return `select ${a.value} in ${a.selector}`;
    case 'check':
      return `check ${a.selector}`;
    case 'click':
      return `click ${a.selector}`;
    case 'wait_for':
      return `wait for ${a.selector}`;
    case 'expect_text':
      return `expect text ${quote(a.text)}`;
    case 'fail_if_text':
      return `fail if text ${quote(a.text)}`;
    case 'read':
      return `read ${a.selector} as ${a.as}`;
  }
}

/** Checks each step's shape and fills in its placeholders; throws StepFailure naming the step. */
function prepare(steps: PlaybookStep[], vars: PlaybookRequest['vars'], mask: (s: string) => string): Prepared[] {
  if (!Array.isArray(steps)) throw new StepFailure('The playbook has no list of steps.');
  return steps.map((raw, i) => {
    const where = `Step ${i + 1}`;
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new StepFailure(`${where} is not a step.`);
    const step = raw as Record<string, unknown>;
    const names = Object.keys(step).filter((k) => (STEP_NAMES as readonly string[]).includes(k));
    if (names.length !== 1) {
      throw new StepFailure(
        names.length === 0
          ? `${where} has none of the step names (${STEP_NAMES.join(', ')}).`
          : `${where} has more than one step name (${names.join(', ')}); each step does one thing.`,
      );
    }
    const kind = names[0] as Action['kind'];
    const allowed = new Set<string>([
      kind,
      ...(kind === 'fill' || kind === 'select' ? ['value'] : kind === 'read' ? ['as'] : []),
    ]);
    const extra = Object.keys(step).filter((k) => !allowed.has(k));
    if (extra.length > 0) throw new StepFailure(`${where} (${kind}) has fields it does not use: ${extra.join(', ')}.`);
    const where2 = `${where} (${kind})`;
    const fault = stepTextFault(kind, step);
    if (fault) throw new StepFailure(`${where2} needs ${fault} as text.`);
    const str = (key: string): string => step[key] as string;
    let action: Action;
    switch (kind) {
      case 'goto': {
        // Checked as written, so that a secret is never filled into an address, then as filled in.
        const written = str('goto');
        const asWritten = gotoFault(written);
        if (asWritten) throw new StepFailure(`${where2} ${asWritten}.`);
        const url = fill(written, vars, where2);
        const fault = gotoFault(url, { filled: true });
        if (fault) throw new StepFailure(`${where2} ${fault}.`);
        action = { kind, url };
        break;
      }
      case 'fill':
      case 'select': {
        action = { kind, selector: str(kind), value: fill(String(step.value), vars, where2) };
        break;
      }
      case 'check':
      case 'click':
      case 'wait_for':
        action = { kind, selector: str(kind) };
        break;
      case 'expect_text':
      case 'fail_if_text':
        action = { kind, text: fill(str(kind), vars, where2) };
        break;
      case 'read':
        action = { kind, selector: str('read'), as: str('as') };
        break;
    }
    return { action, description: mask(describe(action)) };
  });
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))}s`;
}

type Mask = (s: string) => string;

/** What a portal that was reached said by a navigation error, when it is one of those. */
function answeredWithoutPage(error: string): string | null {
  if (error.startsWith('net::ERR_INVALID_AUTH_CREDENTIALS'))
    return 'the portal asked for a sign-in of its own (HTTP authentication), which a run cannot give';
  if (error.startsWith('net::ERR_TOO_MANY_REDIRECTS')) return 'the portal sent the browser round a loop of redirects';
  return null;
}

function firstLine(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  const line = (msg.split('\n').find((l) => l.trim() !== '') ?? msg).trim();
  // Playwright prefixes the API call ("locator.fill: ", "page.goto: "); the step already says what it was.
  return line.replace(/^(locator|page|frame|elementHandle)\.\w+:\s*/, '');
}

/**
 * Page text fit for one sentence, secrets masked before it is cut: cut first, the part of a
 * secret left before the cut would no longer match it.
 */
function snippet(text: string, mask: Mask, max = 200): string {
  const flat = mask(text).replace(/\s+/g, ' ').trim();
  return clipped(flat, max);
}

interface PageState {
  body: string;
  message: string | null;
  ready: boolean;
}

/** The page's visible text, its first visible message (alert, error) and whether it has finished loading. */
/**
 * How long one look at a page may take. A page whose script never stops running answers no
 * look at all, and a step must still fail in its own time rather than wait out the run.
 */
const LOOK_MS = 2_000;

/** What `look` settles to, or null when it has not within LOOK_MS (or failed). */
async function withinLook<T>(look: Promise<T>): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), LOOK_MS);
  });
  try {
    return await Promise.race([look.catch(() => null), late]);
  } finally {
    clearTimeout(timer);
  }
}

async function pageState(page: Page): Promise<PageState | null> {
  // Mid-navigation the document goes away under the look: null, as a look that took too long.
  return withinLook(
    page.evaluate((sel: string) => {
      let message: string | null = null;
      for (const el of Array.from(document.querySelectorAll<HTMLElement>(sel))) {
        const text = (el.innerText ?? '').trim();
        if (text !== '' && el.getClientRects().length > 0) {
          message = text;
          break;
        }
      }
      return { body: document.body?.innerText ?? '', message, ready: document.readyState === 'complete' };
    }, MESSAGE_SELECTOR),
  );
}

/** Tracks main-frame navigations so text checks know whether the portal is still answering. */
class NavigationWatch {
  private pending = new Set<Request>();
  /** Bumped on every committed main-frame navigation. */
  generation = 0;
  /** What a text check last saw on a loaded, quiet page: quoted if the time runs out. */
  lastSeen: PageState | null = null;

  constructor(page: Page) {
    const main = page.mainFrame();
    page.on('request', (r) => {
      if (r.isNavigationRequest() && r.frame() === main) this.pending.add(r);
    });
    page.on('response', (r) => this.pending.delete(r.request()));
    page.on('requestfailed', (r) => this.pending.delete(r));
    page.on('requestfinished', (r) => this.pending.delete(r));
    page.on('framenavigated', (f) => {
      if (f === main) this.generation++;
    });
  }

  get busy(): boolean {
    return this.pending.size > 0;
  }
}

/** `auto`: the browser's own sandbox, wherever Chromium can use one; `off`: never. */
export type Sandbox = 'auto' | 'off';

export class ChromiumRunner implements PlaybookRunner {
  private readonly executablePath: string;
  private readonly privateAddresses: PrivateAddresses;
  private readonly resolve: Resolve | undefined;
  /** Whether the browser runs in its sandbox: Chromium has none for a process running as root. */
  private readonly sandboxed: boolean;
  /** Whether this runner has cleared away the profiles of processes that died mid-run. */
  private swept = false;

  constructor(opts: {
    executablePath: string;
    privateAddresses?: PrivateAddresses;
    resolve?: Resolve;
    sandbox?: Sandbox;
    /** Whether this process runs as root (given by tests; else asked of the system). */
    root?: boolean;
  }) {
    this.executablePath = opts.executablePath;
    this.privateAddresses = opts.privateAddresses ?? 'allow';
    this.resolve = opts.resolve;
    this.sandboxed = (opts.sandbox ?? 'auto') === 'auto' && !(opts.root ?? process.getuid?.() === 0);
  }

  available(): boolean {
    return chromiumAvailable(this.executablePath);
  }

  /** What a page says (its reads, its errors) is stored with the run, on either database. */
  async run(request: PlaybookRequest): Promise<PlaybookResult> {
    return storable(await this.runOnce(request));
  }

  private async runOnce(request: PlaybookRequest): Promise<PlaybookResult> {
    const started = Date.now();
    const deadline = started + Math.max(0, request.timeoutMs);
    const mask = masker(secretValues(request.vars ?? {}));
    const result: PlaybookResult = {
      ok: false,
      // A read may be kept under any name, `__proto__` too.
      reads: Object.create(null),
      error: null,
      timedOut: false,
      unavailable: false,
      stepsDone: 0,
      log: [],
    };
    const fail = (error: string, extra: Partial<PlaybookResult> = {}): PlaybookResult => ({
      ...result,
      ...extra,
      ok: false,
      error: mask(error),
    });

    let steps: Prepared[];
    try {
      steps = prepare(request.steps, request.vars ?? {}, mask);
    } catch (err) {
      if (err instanceof StepFailure) return fail(err.message);
      throw err;
    }

    if (!this.available()) {
      return fail(
        `No browser is available on this machine (looked for ${this.executablePath}); set DESK_CHROMIUM_PATH.`,
        { unavailable: true },
      );
    }

    const remaining = (): number => deadline - Date.now();
    const stepLimit = request.stepLimitMs ?? STEP_LIMIT_MS;
    const outOfTime = `The portal did not finish within ${seconds(request.timeoutMs)}.`;
    let current = -1;
    let browser: BrowserContext | null = null;
    let profile: string | null = null;
    let gate: Gate | null = null;
    let watch: NavigationWatch | null = null;
    /** Why the gate did not let the page the step went to open: refused, or not reachable, in words. */
    let blocked: Blocked | null = null;
    let aborted = false;

    const drive = async (): Promise<PlaybookResult> => {
      try {
        // Playwright loads with the first run, not with the server or the command.
        const { chromium } = await import('playwright-core');
        // Every request the page makes, redirects included, goes through the gate, which checks
        // where it goes against where a run may go.
        const g = await openGate({ policy: this.privateAddresses, resolve: this.resolve });
        gate = g;
        if (!this.swept) {
          this.swept = true;
          sweepLeftovers();
        }
        profile = freshProfile();
        browser = await chromium.launchPersistentContext(profile, {
          acceptDownloads: false,
          serviceWorkers: 'block',
          executablePath: this.executablePath,
          headless: true,
          args: [...CHROMIUM_ARGS, ...g.args],
          // A portal's pages are the web's: the renderer that draws them is kept in the sandbox,
          // where one is to be had (Playwright's own default is none).
          chromiumSandbox: this.sandboxed,
          timeout: LAUNCH_LIMIT_MS,
          // The browser is the process's to stop: a stopping server lets the run finish or records
          // it as interrupted at the drain limit, and Ctrl-C on the CLI does the same. Left to the
          // signal, the browser would close under the run, which would then read as a failure.
          handleSIGINT: false,
          handleSIGTERM: false,
          handleSIGHUP: false,
        });
      } catch (err) {
        if (aborted || remaining() <= 0) throw new OutOfTime();
        if (this.sandboxed && /no usable sandbox/i.test(String(err)))
          return fail(
            `The browser at ${this.executablePath} could not start its sandbox on this machine, which keeps the pages a run opens away from the rest of it. Allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1), or set DESK_CHROMIUM_SANDBOX=off to run the browser without one.`,
            { unavailable: true },
          );
        return fail(
          `The browser at ${this.executablePath} could not be started (${firstLine(err)}); set DESK_CHROMIUM_PATH to a working Chromium.`,
          { unavailable: true },
        );
      }
      if (aborted) throw new OutOfTime();
      const context = browser;
      // WebRTC sends UDP from the browser itself, around the gate, to any address a page names.
      // The profile forbids that; no portal a run files at needs WebRTC at all, so it is also
      // taken out of every frame the init script reaches before the frame's own scripts run.
      await context.addInitScript({ content: NO_WEBRTC });
      const page = context.pages()[0] ?? (await context.newPage());
      const nav = new NavigationWatch(page);
      watch = nav;
      // Why a page did not open, the step's own or one it was sent on to, in the gate's words.
      // (The browser's own requests, for its updates and the like, pass the gate too; they are not the page's.)
      page.on('requestfailed', (req) => {
        if (!req.isNavigationRequest() || req.frame() !== page.mainFrame()) return;
        const host = new URL(req.url()).hostname;
        const f = (gate as Gate | null)?.failure(host);
        blocked = !f ? null : 'refused' in f ? { refused: refusalWords(host, f.refused) } : f;
      });

      // What the page did beside the step, which the step's line and any failure say: a question
      // it asked (alert, confirm, prompt), answered no, since no step agreed to it; a new tab,
      // which the run does not follow.
      let aside: string[] = [];
      const sofar: string[] = [];
      page.on('dialog', (d) => {
        aside.push(`the page asked ${quote(snippet(d.message(), mask))} and the run answered no`);
        d.dismiss().catch(() => undefined);
      });
      context.on('page', () => aside.push('the page opened a new tab, which the run does not follow'));
      // A failure says all of it, the earlier steps' too: the step may have looked for what a
      // question answered no kept from the page, or for what is in the tab.
      const besides = (notes: string[]) => (notes.length ? `; ${[...new Set(notes)].join('; ')}` : '');

      for (let i = 0; i < steps.length; i++) {
        if (aborted) throw new OutOfTime();
        const { action, description } = steps[i]!;
        current = i;
        blocked = null;
        request.onStep?.(i, description);
        if (remaining() <= 0) throw new OutOfTime();
        let line: string | undefined;
        try {
          line = await this.step(page, nav, action, i, remaining, stepLimit, result, () => blocked, mask);
        } catch (err) {
          const more = besides([...sofar, ...aside]);
          if (err instanceof StepFailure && more) throw new StepFailure(`${err.message.replace(/\.$/, '')}${more}.`);
          throw err;
        }
        result.log.push(mask(`${line ?? description}${besides(aside)}`));
        sofar.push(...aside);
        aside = [];
        result.stepsDone = i + 1;
      }
      return { ...result, ok: true };
    };

    let timer: NodeJS.Timeout | undefined;
    const clock = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), Math.max(0, remaining()));
    });
    let onStop: (() => void) | undefined;
    const halted = new Promise<'stopped'>((resolve) => {
      onStop = () => resolve('stopped');
      if (request.signal?.aborted) onStop();
      else request.signal?.addEventListener('abort', onStop, { once: true });
    });
    const work = drive().then(
      (r) => ({ r }),
      (e: unknown) => ({ e }),
    );
    try {
      const outcome = await Promise.race([work, clock, halted]);
      if (outcome === 'stopped') {
        const where =
          current >= 0 && current < steps.length ? ` at step ${current + 1} (${steps[current]!.description})` : '';
        return fail(`The run was stopped${where}; the browser was closed.`, { stepsDone: result.stepsDone });
      }
      if (outcome !== 'timeout' && 'r' in outcome) return outcome.r;
      const err = outcome === 'timeout' ? new OutOfTime() : outcome.e;
      const timedOut = err instanceof OutOfTime || isTimeout(err) || remaining() <= 0;
      if (timedOut) {
        const where =
          current >= 0 && current < steps.length
            ? ` It stopped at step ${current + 1} (${steps[current]!.description})`
            : '';
        const seen = (watch as NavigationWatch | null)?.lastSeen;
        const said =
          !where || !seen
            ? ''
            : seen.message
              ? `; the portal said ${quote(snippet(seen.message, mask))}`
              : `; the page showed ${quote(snippet(seen.body, mask))}`;
        return fail(outOfTime + where + said + (where ? '.' : ''), { timedOut: true });
      }
      if (err instanceof StepFailure) return fail(err.message);
      const where = current >= 0 ? `Step ${current + 1} (${steps[current]!.description})` : 'The browser';
      return fail(`${where} failed: ${firstLine(err)}.`);
    } finally {
      aborted = true;
      clearTimeout(timer);
      if (onStop) request.signal?.removeEventListener('abort', onStop);
      const b = browser as BrowserContext | null;
      if (b) await b.close().catch(() => undefined);
      const g = gate as Gate | null;
      g?.close();
      // A gate or a browser that came up after the run ended (a stop while they were starting)
      // is closed when it does, and the profile goes once nothing uses it.
      const tidy = async (): Promise<void> => {
        const late = browser as BrowserContext | null;
        if (late && late !== b) await late.close().catch(() => undefined);
        const lateGate = gate as Gate | null;
        if (lateGate && lateGate !== g) lateGate.close();
        const made = profile as string | null;
        if (made) rmSync(made, { recursive: true, force: true });
      };
      const left = work.then(tidy).catch(() => undefined);
      // The run's answer waits a little for that (bounded, so a wedged browser cannot hold it).
      await Promise.race([left, new Promise((r) => setTimeout(r, 2_000).unref())]);
    }
  }

  /** Carries out one step; returns the log line when it differs from the description. */
  private async step(
    page: Page,
    nav: NavigationWatch,
    a: Action,
    i: number,
    remaining: () => number,
    stepLimit: number,
    result: PlaybookResult,
    /** Why the gate did not let the step's page open, when it did not. */
    blocked: () => Blocked | null,
    mask: Mask,
  ): Promise<string | undefined> {
    const n = i + 1;
    const timeout = (): number => Math.max(1, remaining());
    // A step that looks for something on the page waits the step's limit at most, within the run's.
    const stepEnds = Date.now() + stepLimit;
    const stepTime = (): number => Math.max(1, Math.min(remaining(), stepEnds - Date.now()));
    const onSelector = async <T>(selector: string, what: string, fn: () => Promise<T>): Promise<T> => {
      try {
        return await fn();
      } catch (err) {
        if (remaining() <= 0) throw new OutOfTime();
        if (isTimeout(err)) {
          const state = await pageState(page);
          const said = state?.message ? `; the page said ${quote(snippet(state.message, mask))}` : '';
          const found = await foundAs(page, selector, a.kind === 'select' ? a.value : null, seconds(stepLimit));
          throw new StepFailure(
            found
              ? `Step ${n} (${what} ${selector}) failed: it is on the page, but ${found}${said}.`
              : `Step ${n} (${what} ${selector}) failed: nothing on the page matched it within ${seconds(stepLimit)}${said}.`,
          );
        }
        // Playwright's own words for it end in a list of the elements, cut off in one line.
        const several = /strict mode violation: .* resolved to (\d+) elements/.exec(firstLine(err));
        if (several)
          throw new StepFailure(
            `Step ${n} (${what} ${selector}) failed: it matches ${several[1]} things on the page, and a step works on one; give a selector that names only the one meant.`,
          );
        throw new StepFailure(`Step ${n} (${what} ${selector}) failed: ${firstLine(err)}.`);
      }
    };

    switch (a.kind) {
      case 'goto': {
        let status: number | undefined;
        try {
          const res = await page.goto(a.url, { timeout: timeout(), waitUntil: 'load' });
          status = res?.status();
        } catch (err) {
          if (isTimeout(err) || remaining() <= 0) throw new OutOfTime();
          // Reached, and it answered with a file to save rather than a page to work in.
          if (/Download is starting/i.test(firstLine(err)))
            throw new StepFailure(
              `Step ${n} (goto ${a.url}): the portal answered with a file to download, not a page.`,
            );
          const why = blocked();
          if (why && 'refused' in why) throw new StepFailure(`Step ${n} (goto ${a.url}): ${why.refused}.`);
          // Reached, and it answered in a way no page comes of: said for what it is.
          const answered = !why && answeredWithoutPage(firstLine(err));
          if (answered) throw new StepFailure(`Step ${n} (goto ${a.url}): ${answered}.`);
          throw new StepFailure(
            `Step ${n} (goto ${a.url}): the portal could not be reached (${why ? why.unreachable : firstLine(err)}).`,
          );
        }
        if (status !== undefined && status >= 400) {
          const state = await pageState(page);
          const said = state ? snippet(state.message ?? state.body, mask) : '';
          throw new StepFailure(
            `Step ${n} (goto ${a.url}): the portal answered ${status}${said ? `, saying ${quote(said)}` : ''}.`,
          );
        }
        return undefined;
      }
      case 'fill':
        await onSelector(a.selector, 'fill', () => page.locator(a.selector).fill(a.value, { timeout: stepTime() }));
        return undefined;
      case 'select':
        await onSelector(a.selector, 'select', () =>
          page.locator(a.selector).selectOption(a.value, { timeout: stepTime() }),
        );
        return undefined;
      case 'check':
        await onSelector(a.selector, 'check', () => page.locator(a.selector).check({ timeout: stepTime() }));
        return undefined;
      case 'click':
        await onSelector(a.selector, 'click', () => page.locator(a.selector).click({ timeout: stepTime() }));
        return undefined;
      case 'wait_for':
        await onSelector(a.selector, 'wait for', () =>
          page.locator(a.selector).waitFor({ state: 'visible', timeout: stepTime() }),
        );
        return undefined;
      case 'read': {
        // A field shows its value, which its text (empty for an input) does not hold; a list shows its chosen option.
        const text = await onSelector(a.selector, 'read', () =>
          page
            .locator(a.selector)
            .evaluate(
              (el) =>
                el instanceof HTMLSelectElement
                  ? (el.selectedOptions[0]?.text ?? '')
                  : el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement
                    ? el.value
                    : (el as HTMLElement).innerText,
              undefined,
              { timeout: stepTime() },
            ),
        );
        // What a read keeps is a value a portal shows (a reference, a date, a status line),
        // not a whole page: it goes into the answer, the timeline, the log and the report.
        const whole = mask(text.trim());
        const head = whole.slice(0, READ_MAX * 2);
        result.reads[a.as] =
          whole.length > head.length || longerThan(head, READ_MAX) ? `${cutAt(head, READ_MAX)}…` : whole;
        return `read ${a.selector} as ${a.as}: ${quote(snippet(text, mask, 120))}`;
      }
      case 'expect_text':
        await this.expectText(page, nav, a.text, n, remaining, stepLimit, mask);
        return undefined;
      case 'fail_if_text': {
        const state = await this.settled(page, nav, remaining, stepEnds);
        if (state === null)
          throw new StepFailure(
            `Step ${n} (fail if text ${quote(a.text)}): the page did not finish loading within ${seconds(stepLimit)}, so it could not be checked.`,
          );
        if (state.body.includes(a.text)) {
          const said = state.message?.includes(a.text)
            ? state.message
            : (state.body
                .split('\n')
                .find((l) => l.includes(a.text))
                ?.trim() ?? a.text);
          throw new StepFailure(
            `Step ${n} (fail if text ${quote(a.text)}): the portal said ${quote(snippet(said, mask))}.`,
          );
        }
        return undefined;
      }
    }
  }

  /**
   * Waits until the page has finished loading and no navigation is under way; returns what it
   * shows, or null when the step's time (`until`) runs out first.
   */
  private async settled(
    page: Page,
    nav: NavigationWatch,
    remaining: () => number,
    until: number,
  ): Promise<PageState | null> {
    for (;;) {
      if (remaining() <= 0) throw new OutOfTime();
      if (Date.now() >= until) return null;
      if (!nav.busy) {
        const gen = nav.generation;
        const state = await pageState(page);
        if (state?.ready && !nav.busy && gen === nav.generation) return state;
      }
      await sleep(Math.min(POLL_MS, Math.max(1, remaining())));
    }
  }

  /**
   * Waits (up to the time left) for the page to show `text`. Gives up early when the portal has
   * plainly answered otherwise: the page is loaded, nothing is loading, and it shows a message.
   */
  private async expectText(
    page: Page,
    nav: NavigationWatch,
    text: string,
    n: number,
    remaining: () => number,
    stepLimit: number,
    mask: Mask,
  ): Promise<void> {
    const stepEnds = Date.now() + stepLimit;
    let quietSince: number | null = null;
    let quietGen = -1;
    for (;;) {
      const gen = nav.generation;
      const state = await pageState(page);
      if (state?.body.includes(text)) return;
      const loaded = state?.ready && !nav.busy && gen === nav.generation;
      nav.lastSeen = loaded ? state : null;
      const quiet = loaded && state.message !== null;
      if (!quiet) quietSince = null;
      else if (quietSince === null || quietGen !== gen) {
        quietSince = Date.now();
        quietGen = gen;
      } else if (Date.now() - quietSince >= SETTLE_MS) {
        throw new StepFailure(
          `Step ${n} (expect text ${quote(text)}): the portal said ${quote(snippet(state!.message!, mask))}.`,
        );
      }
      if (remaining() <= 0) throw new OutOfTime();
      if (Date.now() >= stepEnds) {
        const said = state?.message ? `; the page said ${quote(snippet(state.message, mask))}` : '';
        throw new StepFailure(
          `Step ${n} (expect text ${quote(text)}): the page did not show it within ${seconds(stepLimit)}${said}.`,
        );
      }
      await sleep(Math.min(POLL_MS, Math.max(1, remaining())));
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
