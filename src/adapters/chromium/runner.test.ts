import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startPortal, PORTAL_PASSWORD, PORTAL_USER, type Portal } from '../../../test/helpers/portal.ts';
import { ChromiumRunner, chromiumAvailable, type Sandbox, sweepLeftovers } from './runner.ts';
import type { PlaybookRequest, PlaybookStep } from '../../domain/playbooks.ts';

const CHROMIUM = process.env.DESK_CHROMIUM_PATH || '/usr/bin/chromium';
const available = chromiumAvailable(CHROMIUM);
if (!available)
  console.log(`Chromium not installed at ${CHROMIUM}: skipping the browser playbook tests (set DESK_CHROMIUM_PATH).`);

const vars = (over: Partial<PlaybookRequest['vars']> = {}): PlaybookRequest['vars'] => ({
  work: { title: 'File VAT return', due_date: '2026-11-21' },
  unit: { name: 'High St' },
  arrangement: { name: 'Lease' },
  secret: { username: PORTAL_USER, password: PORTAL_PASSWORD },
  ...over,
});

const login = (base: string): PlaybookStep[] => [
  { goto: `${base}/login` },
  { fill: '#user', value: '{{secret.username}}' },
  { fill: '#pass', value: '{{secret.password}}' },
  { click: 'button[type=submit]' },
];

const fileReturn = (base: string): PlaybookStep[] => [
  ...login(base),
  { fill: '#period', value: '{{work.due_date}}' },
  { click: '#submit-return' },
  { expect_text: 'Return received' },
  { read: '#reference', as: 'result' },
];

describe('ChromiumRunner without a browser', () => {
  it('reports unavailable when the executable is missing, without trying to drive anything', async () => {
    const runner = new ChromiumRunner({ executablePath: '/nonexistent/chromium' });
    const steps: number[] = [];
    const res = await runner.run({
      steps: [{ goto: 'http://127.0.0.1:9/' }],
      vars: vars(),
      timeoutMs: 5_000,
      onStep: (i) => steps.push(i),
    });
    expect(res.ok).toBe(false);
    expect(res.unavailable).toBe(true);
    expect(res.timedOut).toBe(false);
    expect(res.error).toBe(
      'No browser is available on this machine (looked for /nonexistent/chromium); set DESK_CHROMIUM_PATH.',
    );
    expect(res.stepsDone).toBe(0);
    expect(steps).toEqual([]);
  });

  it('refuses an unknown placeholder by name before launching (even with no browser at all)', async () => {
    const runner = new ChromiumRunner({ executablePath: '/nonexistent/chromium' });
    const res = await runner.run({
      steps: [{ goto: 'http://127.0.0.1:9/login' }, { fill: '#user', value: '{{secret.usename}}' }],
      vars: vars(),
      timeoutMs: 5_000,
    });
    expect(res.ok).toBe(false);
    expect(res.unavailable).toBe(false); // it never got as far as looking for the browser
    expect(res.error).toContain('{{secret.usename}}');
    expect(res.error).toContain('Step 2');
    expect(res.stepsDone).toBe(0);
    expect(res.log).toEqual([]);
  });

  it.each([
    ['file:///etc/passwd', 'must go to a web address starting http:// or https://'],
    ['{{unit.page}}', 'must go to a web address starting http:// or https://'],
    ['javascript:alert(1)', 'must go to a web address starting http:// or https://'],
    // A "{{" that is no placeholder, written or filled in, is no way past the rule.
    ['file:///etc/hostname#{{', 'must go to a web address starting http:// or https://'],
    ['data:text/html,<p>hello {{</p>', 'must go to a web address starting http:// or https://'],
    ['chrome://version/#{{', 'must go to a web address starting http:// or https://'],
    ['file:///etc/hostname?{{unit.id}}', 'must go to a web address starting http:// or https://'],
    ['{{unit.open}}', 'must go to a web address starting http:// or https://'],
    ['http://127.0.0.1:9/steal?p={{secret.password}}', 'may not carry a {{secret...}} value in its address'],
  ])('refuses to go to %j before launching, and never fills a secret into an address', async (goto, said) => {
    const runner = new ChromiumRunner({ executablePath: '/nonexistent/chromium' });
    const res = await runner.run({
      steps: [{ goto }],
      vars: vars({ unit: { page: 'file:///etc/hostname', id: '7', open: 'file:///etc/passwd?{{' } }),
      timeoutMs: 5_000,
    });
    expect(res.ok).toBe(false);
    expect(res.unavailable).toBe(false);
    expect(res.error).toBe(
      `Step 1 (goto) ${said}${said.endsWith('address') ? '; type secrets into the form with fill' : ''}.`,
    );
    expect(res.stepsDone).toBe(0);
  });

  it('checks that chromiumAvailable wants an executable file', () => {
    expect(chromiumAvailable('/nonexistent/chromium')).toBe(false);
    const dir = mkdtempSync(join(tmpdir(), 'desk-chromium-'));
    try {
      const file = join(dir, 'chromium');
      writeFileSync(file, '#!/bin/sh\nexit 1\n');
      chmodSync(file, 0o644);
      expect(chromiumAvailable(file)).toBe(false); // a file, not executable
      chmodSync(file, 0o755);
      expect(chromiumAvailable(file)).toBe(true);
      expect(chromiumAvailable(dir)).toBe(false); // searchable, but not a file
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports unavailable when the executable exists but is not a working browser', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'desk-chromium-'));
    try {
      const file = join(dir, 'chromium');
      writeFileSync(file, '#!/bin/sh\necho "not a browser" >&2\nexit 3\n');
      chmodSync(file, 0o755);
      const res = await new ChromiumRunner({ executablePath: file }).run({
        steps: [{ goto: 'http://127.0.0.1:9/' }],
        vars: vars(),
        timeoutMs: 10_000,
      });
      expect(res.ok).toBe(false);
      expect(res.unavailable).toBe(true);
      expect(res.timedOut).toBe(false);
      expect(res.error).toContain(file);
      expect(res.error).toContain('DESK_CHROMIUM_PATH');
      expect(res.stepsDone).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!available)(
  `ChromiumRunner against a loopback portal${available ? '' : ' (Chromium not installed)'}`,
  () => {
    let portal: Portal;
    const runner = new ChromiumRunner({ executablePath: CHROMIUM });

    beforeAll(async () => {
      portal = await startPortal();
    });
    afterAll(async () => {
      await portal?.close();
    });
    beforeEach(() => {
      portal.setMode('accept');
      portal.submissions.length = 0;
    });

    it('never opens a link-local address, and opens this machine only where it is allowed', async () => {
      const metadata = await runner.run({
        steps: [{ goto: 'http://169.254.169.254/latest/meta-data/' }],
        vars: vars(),
        timeoutMs: 20_000,
      });
      expect(metadata.ok).toBe(false);
      expect(metadata.error).toBe(
        "Step 1 (goto http://169.254.169.254/latest/meta-data/): the desk does not open pages at 169.254.169.254, a link-local address, where a cloud machine's own settings and keys are served.",
      );
      const hosted = new ChromiumRunner({ executablePath: CHROMIUM, privateAddresses: 'refuse' });
      const local = await hosted.run({ steps: fileReturn(portal.url), vars: vars(), timeoutMs: 20_000 });
      expect(local.ok).toBe(false);
      expect(local.error).toBe(
        `Step 1 (goto ${portal.url}/login): the desk does not open pages at 127.0.0.1, an address on its own machine or network (DESK_RUN_PRIVATE_ADDRESSES is refuse).`,
      );
      expect(portal.submissions).toHaveLength(0);

      const sentOn = await runner.run({
        steps: [{ goto: `${portal.url}/elsewhere?to=http://169.254.169.254/latest/` }],
        vars: vars(),
        timeoutMs: 20_000,
      });
      expect(sentOn.error).toBe(
        `Step 1 (goto ${portal.url}/elsewhere?to=http://169.254.169.254/latest/): the desk does not open pages at 169.254.169.254, a link-local address, where a cloud machine's own settings and keys are served.`,
      );
    });

    it('reaches a host at the address the desk checked: the browser never looks the name up itself', async () => {
      // portal.test is in no resolver's answers but the desk's own (here, the test's), so the run
      // reaches the portal only if the browser connects where the desk's check said.
      const asked: string[] = [];
      const resolve = async (host: string) => {
        asked.push(host);
        return [{ address: '127.0.0.1' }];
      };
      const base = `http://portal.test:${new URL(portal.url).port}`;
      const reached = await new ChromiumRunner({ executablePath: CHROMIUM, resolve }).run({
        steps: fileReturn(base),
        vars: vars(),
        timeoutMs: 20_000,
      });
      expect(reached.error).toBeNull();
      expect(reached.ok).toBe(true);
      expect(portal.submissions).toHaveLength(1);
      // The browser's own requests (its updates and the like) pass the gate too.
      expect(asked).toContain('portal.test');

      const hosted = await new ChromiumRunner({ executablePath: CHROMIUM, privateAddresses: 'refuse', resolve }).run({
        steps: fileReturn(base),
        vars: vars(),
        timeoutMs: 20_000,
      });
      expect(hosted.ok).toBe(false);
      expect(hosted.error).toBe(
        `Step 1 (goto ${base}/login): the desk does not open pages at portal.test (127.0.0.1), an address on its own machine or network (DESK_RUN_PRIVATE_ADDRESSES is refuse).`,
      );
      expect(portal.submissions).toHaveLength(1);
    });

    it('logs in with the secrets, files the return with the templated period and reads the reference', async () => {
      const seen: Array<[number, string]> = [];
      const t0 = Date.now();
      const res = await runner.run({
        steps: fileReturn(portal.url),
        vars: vars(),
        timeoutMs: 20_000,
        onStep: (i, d) => seen.push([i, d]),
      });
      const took = Date.now() - t0;

      expect(res.error).toBeNull();
      expect(res.ok).toBe(true);
      expect(res.timedOut).toBe(false);
      expect(res.unavailable).toBe(false);
      expect(res.stepsDone).toBe(8);
      expect(res.reads.result).toMatch(/^VAT-2026-\d{6}$/);
      expect(portal.submissions).toHaveLength(1);
      expect(portal.submissions[0]!.period).toBe('2026-11-21');

      // Steps are announced before they run, secrets masked.
      expect(seen.map(([i]) => i)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
      expect(seen[0]![1]).toBe(`goto ${portal.url}/login`);
      expect(seen[1]![1]).toBe('fill #user with ***');
      expect(seen[2]![1]).toBe('fill #pass with ***');
      expect(seen[3]![1]).toBe('click button[type=submit]');
      expect(seen[4]![1]).toBe('fill #period with 2026-11-21');
      expect(res.log).toHaveLength(8);
      expect(res.log[2]).toBe('fill #pass with ***');
      expect(res.log[7]).toContain(res.reads.result);
      const everything = JSON.stringify(res.log) + JSON.stringify(seen);
      expect(everything).not.toContain(PORTAL_PASSWORD);
      expect(everything).not.toContain(PORTAL_USER);
      console.log(`login-and-submit flow took ${took} ms`);
    });

    it('works the select and check steps, and templates the other groups', async () => {
      const res = await runner.run({
        steps: [
          ...login(portal.url),
          { wait_for: '#period' },
          { fill: '#period', value: '{{work.due_date}} ({{unit.name}}, {{arrangement.name}})' },
          { select: '#scheme', value: 'flat' },
          { check: '#confirm' },
          { click: '#submit-return' },
          { expect_text: 'Return received' },
          { fail_if_text: 'already filed' },
          { read: '#reference', as: 'ref' },
        ],
        vars: vars(),
        timeoutMs: 20_000,
      });
      expect(res.error).toBeNull();
      expect(res.ok).toBe(true);
      expect(res.stepsDone).toBe(12);
      expect(res.reads.ref).toMatch(/^VAT-2026-\d{6}$/);
      expect(portal.submissions).toEqual([{ period: '2026-11-21 (High St, Lease)', scheme: 'flat', confirm: 'yes' }]);
      expect(res.log).toContain('select flat in #scheme');
      expect(res.log).toContain('check #confirm');
    });

    it('fails with the portal\u2019s own words when it rejects the return', async () => {
      portal.setMode('reject');
      const res = await runner.run({ steps: fileReturn(portal.url), vars: vars(), timeoutMs: 20_000 });
      expect(res.ok).toBe(false);
      // It recognised the answer rather than waiting out its time: the portal's words, not the limit's.
      expect(res.timedOut).toBe(false);
      expect(res.error).toContain('The period 2026-11-21 is already filed');
      expect(res.error).toContain('Step 7');
      expect(res.stepsDone).toBe(6);
      expect(res.reads).toEqual({});
      expect(portal.submissions).toHaveLength(1);
    });

    it('fail_if_text stops a run when the portal shows the words', async () => {
      portal.setMode('reject');
      const res = await runner.run({
        steps: [
          ...login(portal.url),
          { fill: '#period', value: '2026-08-31' },
          { click: '#submit-return' },
          { fail_if_text: 'already filed' },
          { read: '#reference', as: 'result' },
        ],
        vars: vars(),
        timeoutMs: 20_000,
      });
      expect(res.ok).toBe(false);
      expect(res.timedOut).toBe(false);
      expect(res.error).toContain('The period 2026-08-31 is already filed');
      expect(res.stepsDone).toBe(6);
    });

    it('gives up at the time limit when the portal never answers, and says so', async () => {
      portal.setMode('hang');
      const t0 = Date.now();
      // The limit leaves room for the steps before the submit on a loaded machine: under load
      // 3 s, and once 8 s, ran out before the submit, which is not the case this test is about.
      const res = await runner.run({ steps: fileReturn(portal.url), vars: vars(), timeoutMs: 12_000 });
      const took = Date.now() - t0;
      expect(res.ok).toBe(false);
      expect(res.timedOut).toBe(true);
      expect(res.unavailable).toBe(false);
      expect(res.error).toMatch(/^The portal did not finish within 12s\./);
      expect(res.stepsDone).toBeGreaterThanOrEqual(5);
      expect(res.stepsDone).toBeLessThan(8);
      expect(portal.submissions).toHaveLength(1); // the submit reached the portal; the answer never came
      // Not before its limit; and it did stop (a run that waited on the portal would meet the test's own limit).
      expect(took).toBeGreaterThanOrEqual(11_900);
      console.log(`hang run returned after ${took} ms (limit 12000 ms): ${res.error}`);
    });

    it('quotes the login error and never repeats the password', async () => {
      const wrong = 'hunter2-not-it';
      const res = await runner.run({
        steps: [
          ...login(portal.url),
          { expect_text: 'Submit a VAT return' },
          { fill: '#period', value: '{{work.due_date}}' },
        ],
        vars: vars({ secret: { username: PORTAL_USER, password: wrong } }),
        timeoutMs: 20_000,
      });
      expect(res.ok).toBe(false);
      expect(res.timedOut).toBe(false);
      expect(res.error).toContain('Wrong username or password');
      expect(res.error).toContain('Step 5');
      expect(res.stepsDone).toBe(4);
      expect(res.error).not.toContain(wrong);
      expect(res.error).not.toContain(PORTAL_USER);
      expect(res.log.join('\n')).not.toContain(wrong);
      expect(res.log).toContain('fill #pass with ***');
      expect(portal.submissions).toHaveLength(0);
    });

    it.each([
      ['/basic', 'the portal asked for a sign-in of its own (HTTP authentication), which a run cannot give'],
      ['/loop', 'the portal sent the browser round a loop of redirects'],
    ])(
      'says a portal at %s that answered without a page for what it did, not that it could not be reached',
      async (path, said) => {
        const res = await runner.run({ steps: [{ goto: `${portal.url}${path}` }], vars: vars(), timeoutMs: 20_000 });
        expect(res).toMatchObject({ ok: false, timedOut: false });
        expect(res.error).toBe(`Step 1 (goto ${portal.url}${path}): ${said}.`);
      },
    );

    it('masks a secret before cutting the page text it quotes, so no part of it is left where the cut falls', async () => {
      const secret = vars({ secret: { username: PORTAL_USER, password: PORTAL_PASSWORD } });
      // The 200 characters a failure quotes end inside the password.
      const failed = await runner.run({
        steps: [{ goto: `${portal.url}/wordy?n=195` }, { expect_text: 'Return received' }],
        vars: secret,
        timeoutMs: 20_000,
        stepLimitMs: 3_000,
      });
      expect(failed.ok).toBe(false);
      expect(failed.error).toBe(`Step 2 (expect text "Return received"): the portal said "${'x'.repeat(195)} ***…".`);
      // A read's log line keeps 120 characters; the value itself is masked whole.
      const read = await runner.run({
        steps: [{ goto: `${portal.url}/wordy?n=115` }, { read: '.error', as: 'result' }],
        vars: secret,
        timeoutMs: 20_000,
      });
      expect(read.ok).toBe(true);
      expect(read.log[1]).toBe(`read .error as result: "${'x'.repeat(115)} ***…"`);
      expect(read.reads.result).toBe(`${'x'.repeat(115)} *** tail`);
    });

    it('fails a step whose field never appears within the step limit, quoting the page, well before the run limit', async () => {
      const t0 = Date.now();
      const res = await runner.run({
        steps: [...login(portal.url), { fill: '#period', value: '{{work.due_date}}' }],
        vars: vars({ secret: { username: PORTAL_USER, password: 'not-the-password' } }),
        timeoutMs: 60_000,
        stepLimitMs: 1_500,
      });
      expect(res.ok).toBe(false);
      expect(res.timedOut).toBe(false);
      expect(res.error).toBe(
        'Step 5 (fill #period) failed: nothing on the page matched it within 1.5s; the page said "Wrong username or password".',
      );
      expect(res.stepsDone).toBe(4);
      expect(Date.now() - t0).toBeLessThan(30_000);
    });

    it('names the step and selector when an element cannot be used', async () => {
      const res = await runner.run({
        steps: [{ goto: `${portal.url}/login` }, { check: '#user' }],
        vars: vars(),
        timeoutMs: 10_000,
      });
      expect(res.ok).toBe(false);
      expect(res.timedOut).toBe(false);
      expect(res.error).toContain('Step 2');
      expect(res.error).toContain('#user');
      expect(res.stepsDone).toBe(1);
    });

    it('says a field or button that is there is hidden or disabled, not that nothing matched it', async () => {
      const run = (step: PlaybookStep) =>
        runner.run({
          steps: [{ goto: `${portal.url}/closed` }, step],
          vars: vars(),
          timeoutMs: 20_000,
          stepLimitMs: 1_000,
        });
      expect((await run({ click: '#go' })).error).toBe(
        'Step 2 (click #go) failed: it is on the page, but stayed disabled for 1s.',
      );
      expect((await run({ fill: '#ref', value: 'x' })).error).toBe(
        'Step 2 (fill #ref) failed: it is on the page, but stayed hidden for 1s.',
      );
      expect((await run({ select: '#period', value: 'q9' })).error).toBe(
        'Step 2 (select #period) failed: it is on the page, but has no option "q9".',
      );
      expect((await run({ click: '#nowhere' })).error).toBe(
        'Step 2 (click #nowhere) failed: nothing on the page matched it within 1s.',
      );
    });

    it("fails a step on a page whose script never stops within the step's time, not the run's", async () => {
      const res = await runner.run({
        steps: [{ goto: `${portal.url}/busy` }, { click: '#missing' }],
        vars: vars(),
        timeoutMs: 60_000,
        stepLimitMs: 1_000,
      });
      expect(res.timedOut).toBe(false);
      expect(res.error).toBe('Step 2 (click #missing) failed: nothing on the page matched it within 1s.');
      const checked = await runner.run({
        steps: [{ goto: `${portal.url}/busy` }, { fail_if_text: 'Oops' }],
        vars: vars(),
        timeoutMs: 60_000,
        stepLimitMs: 1_000,
      });
      expect(checked.timedOut).toBe(false);
      expect(checked.error).toBe(
        'Step 2 (fail if text "Oops"): the page did not finish loading within 1s, so it could not be checked.',
      );
    }, 30_000);

    it("reads a field's value as a person sees it, and says a selector that matches several things names no one", async () => {
      const read = await runner.run({
        steps: [
          { goto: `${portal.url}/fields` },
          { read: '#ref', as: 'ref' },
          { read: '#notes', as: 'notes' },
          { read: '#period', as: 'period' },
        ],
        vars: vars(),
        timeoutMs: 20_000,
      });
      expect(read.ok).toBe(true);
      expect(read.reads).toEqual({ ref: 'REF-2041', notes: 'Filed.', period: 'Q4' });
      const several = await runner.run({
        steps: [{ goto: `${portal.url}/fields` }, { read: '.line', as: 'result' }],
        vars: vars(),
        timeoutMs: 20_000,
      });
      expect(several.ok).toBe(false);
      expect(several.error).toBe(
        'Step 2 (read .line) failed: it matches 2 things on the page, and a step works on one; give a selector that names only the one meant.',
      );
    });

    it('answers no to a question a page asks, and says so; says a new tab is not followed', async () => {
      const asked = await runner.run({
        steps: [{ goto: `${portal.url}/asks` }, { expect_text: 'Return received' }],
        vars: vars(),
        timeoutMs: 20_000,
        stepLimitMs: 1_000,
      });
      expect(asked.ok).toBe(false);
      expect(asked.error).toContain('the page asked "Submit your return now?" and the run answered no');
      const tab = await runner.run({
        steps: [{ goto: `${portal.url}/tab` }, { click: '#open' }, { read: '#all', as: 'all' }],
        vars: vars(),
        timeoutMs: 20_000,
        // Room for the click on a busy machine: opening the tab is what the browser waits on.
        stepLimitMs: 4_000,
      });
      expect(tab.ok).toBe(false);
      expect(tab.error).toMatch(
        /^Step 3 \(read #all\) failed: .*; the page opened a new tab, which the run does not follow\.$/,
      );
    });

    it("quotes a portal's error message cut short, on one line", async () => {
      const res = await runner.run({ steps: [{ goto: `${portal.url}/broken-long` }], vars: vars(), timeoutMs: 20_000 });
      expect(res.error).toMatch(
        /^Step 1 \(goto .*\/broken-long\): the portal answered 500, saying "Error detail\. Error detail\./,
      );
      expect(res.error!.length).toBeLessThan(400);
    });

    it('says a portal that answers with a file gave no page, not that it could not be reached', async () => {
      const res = await runner.run({ steps: [{ goto: `${portal.url}/download` }], vars: vars(), timeoutMs: 20_000 });
      expect(res.error).toBe(
        `Step 1 (goto ${portal.url}/download): the portal answered with a file to download, not a page.`,
      );
    });

    it('keeps at most 4,000 characters of what a step reads', async () => {
      const res = await runner.run({
        steps: [{ goto: `${portal.url}/long` }, { read: '#all', as: 'all' }],
        vars: vars(),
        timeoutMs: 20_000,
      });
      expect(res.ok).toBe(true);
      expect(res.reads.all).toBe(`${'y'.repeat(4000)}…`);
    });

    it('shares nothing between runs: a second run starts logged out', async () => {
      const first = await runner.run({ steps: login(portal.url), vars: vars(), timeoutMs: 10_000 });
      expect(first.ok).toBe(true);
      const second = await runner.run({
        steps: [{ goto: `${portal.url}/return` }, { expect_text: 'Sign in' }, { wait_for: '#user' }],
        vars: vars(),
        timeoutMs: 10_000,
      });
      expect(second.error).toBeNull();
      expect(second.ok).toBe(true);
    });
  },
);

describe.skipIf(!available)(
  `ChromiumRunner's way out through the gate${available ? '' : ' (Chromium not installed)'}`,
  () => {
    const runner = new ChromiumRunner({ executablePath: CHROMIUM });
    let site: Server;
    let base: string;
    /** A loopback port where nothing listens. */
    let closed: number;

    const rtcPage = (stun: number) => `<!doctype html><title>Call</title><p id="said"></p><script>
      const offer = async (PC) => {
        const pc = new PC({ iceServers: [{ urls: 'stun:127.0.0.1:${stun}' }] });
        pc.createDataChannel('x');
        await pc.setLocalDescription(await pc.createOffer());
      };
      (async () => {
        const said = [];
        try { await offer(window.RTCPeerConnection); said.push('page made a call'); } catch { said.push('page has no calls'); }
        try {
          const frame = document.body.appendChild(document.createElement('iframe'));
          await offer(frame.contentWindow.RTCPeerConnection);
          said.push('frame made a call');
        } catch { said.push('frame has no calls'); }
        document.getElementById('said').textContent = said.join(', ');
      })();
      // Sandboxed frames of their own, several at once, which an init script does not always reach in time.
      for (let i = 0; i < 5; i++) {
        const frame = document.createElement('iframe');
        frame.sandbox = 'allow-scripts';
        frame.srcdoc = '<script>(' + offer + ')(window.RTCPeerConnection).catch(() => {});<' + '/script>';
        document.body.appendChild(frame);
      }
    </script>`;

    beforeAll(async () => {
      site = createServer((req, res) => {
        const url = new URL(req.url ?? '/', 'http://site');
        res.setHeader('content-type', 'text/html');
        if (url.pathname === '/rtc') return void res.end(rtcPage(Number(url.searchParams.get('stun'))));
        // Sends itself on, after it has loaded, to a page a run may not open.
        res.end(
          `<!doctype html><title>Away</title><script>setTimeout(() => { location = 'http://169.254.169.254/'; }, 50);</script>`,
        );
      });
      site.listen(0, '127.0.0.1');
      await once(site, 'listening');
      base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
      const spare = createServer().listen(0, '127.0.0.1');
      await once(spare, 'listening');
      closed = (spare.address() as AddressInfo).port;
      spare.close();
      await once(spare, 'close');
    });
    afterAll(() => {
      site?.close();
    });

    it('lets no page send UDP around the gate with WebRTC, in any frame', async () => {
      const udp = createSocket('udp4');
      let packets = 0;
      udp.on('message', () => packets++);
      udp.bind(0, '127.0.0.1');
      await once(udp, 'listening');
      try {
        const res = await runner.run({
          steps: [
            { goto: `${base}/rtc?stun=${udp.address().port}` },
            { wait_for: '#said:not(:empty)' },
            { read: '#said', as: 'said' },
          ],
          vars: vars(),
          timeoutMs: 20_000,
        });
        expect(res.error).toBeNull();
        expect(res.reads.said).toBe('page has no calls, frame has no calls');
        // A call's first packets leave within milliseconds of its offer; give them ample time.
        await new Promise((r) => setTimeout(r, 1_000));
        expect(packets).toBe(0);
      } finally {
        udp.close();
      }
    });

    it("says in the gate's words why a portal could not be reached, not the proxy's", async () => {
      const unknown = await new ChromiumRunner({
        executablePath: CHROMIUM,
        resolve: async (host) => {
          throw new Error(`${host} does not resolve`);
        },
      }).run({ steps: [{ goto: 'http://nowhere.test/login' }], vars: vars(), timeoutMs: 20_000 });
      expect(unknown.error).toBe(
        'Step 1 (goto http://nowhere.test/login): the portal could not be reached (nowhere.test was not found: no address is known by that name).',
      );
      const shut = await runner.run({
        steps: [{ goto: `http://127.0.0.1:${closed}/` }],
        vars: vars(),
        timeoutMs: 20_000,
      });
      expect(shut.error).toBe(
        `Step 1 (goto http://127.0.0.1:${closed}/): the portal could not be reached (nothing answered at 127.0.0.1 on port ${closed}: the connection was refused).`,
      );
    });

    it("does not blame a step's failure on a page an earlier step was refused", async () => {
      const res = await runner.run({
        steps: [
          { goto: `${base}/away` },
          // The page sent itself on, was refused, and the browser shows its own error page.
          { wait_for: '#main-frame-error' },
          { goto: `http://127.0.0.1:${closed}/` },
        ],
        vars: vars(),
        timeoutMs: 20_000,
      });
      expect(res.stepsDone).toBe(2);
      expect(res.error).toBe(
        `Step 3 (goto http://127.0.0.1:${closed}/): the portal could not be reached (nothing answered at 127.0.0.1 on port ${closed}: the connection was refused).`,
      );
    });
  },
);

describe.skipIf(!available)(
  `ChromiumRunner stopped while its browser starts${available ? '' : ' (Chromium not installed)'}`,
  () => {
    it('closes the gate it opened after the run was stopped', async () => {
      const listening = () => process.getActiveResourcesInfo().filter((r) => r === 'TCPServerWrap').length;
      // Servers the file's earlier tests opened finish closing first, so that none can hide a new one.
      let before = listening();
      for (let i = 0; i < 10; i++) {
        await new Promise((r) => setTimeout(r, 1_000));
        if (listening() === before) break;
        before = listening();
      }
      for (const after of [0, 1, 5]) {
        const stop = new AbortController();
        setTimeout(() => stop.abort(), after);
        const res = await new ChromiumRunner({ executablePath: CHROMIUM }).run({
          steps: [{ goto: 'http://127.0.0.1:9/' }],
          vars: vars(),
          timeoutMs: 30_000,
          signal: stop.signal,
        });
        expect(res.ok).toBe(false);
      }
      await expect.poll(listening, { timeout: 10_000 }).toBe(before);
    }, 60_000);

    it('closes a browser that comes up after the run was stopped, and removes its profile', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'desk-slow-chromium-'));
      try {
        // A browser slow to start: it notes where its profile is, waits, then starts for real.
        const seen = join(dir, 'args');
        const slow = join(dir, 'chromium');
        writeFileSync(slow, `#!/bin/sh\necho "$@" > ${seen}\nsleep 3\nexec ${CHROMIUM} "$@"\n`);
        chmodSync(slow, 0o755);
        const stop = new AbortController();
        setTimeout(() => stop.abort(), 500);
        const res = await new ChromiumRunner({ executablePath: slow }).run({
          steps: [{ goto: 'http://127.0.0.1:9/' }],
          vars: vars(),
          timeoutMs: 30_000,
          signal: stop.signal,
        });
        expect(res.error).toBe('The run was stopped; the browser was closed.');
        const profile = /--user-data-dir=(\S+)/.exec(readFileSync(seen, 'utf8'))?.[1];
        expect(profile).toMatch(/desk-run-/);
        // The browser is up a few seconds after the run was answered; then it must go, and its profile.
        const gone = async (): Promise<boolean> => {
          for (let i = 0; i < 100; i++) {
            const running = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).includes(profile!);
            if (!running && !existsSync(profile!)) return true;
            await new Promise((r) => setTimeout(r, 100));
          }
          return false;
        };
        await new Promise((r) => setTimeout(r, 4_000));
        expect(await gone()).toBe(true);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }, 30_000);

    it('lets a browser still starting when the time ran out come up, then closes it and removes its profile', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'desk-slow-chromium-'));
      try {
        // A browser slow to start, as a busy machine's is: the run's time runs out before it is up.
        // Its start was given up at the run's limit, and the browser, still coming up, wrote its
        // profile again after the run had removed it.
        const seen = join(dir, 'args');
        const started = join(dir, 'started');
        const slow = join(dir, 'chromium');
        writeFileSync(slow, `#!/bin/sh\necho "$@" > ${seen}\nsleep 2\ntouch ${started}\nexec ${CHROMIUM} "$@"\n`);
        chmodSync(slow, 0o755);
        const res = await new ChromiumRunner({ executablePath: slow }).run({
          steps: [{ goto: 'http://127.0.0.1:9/' }],
          vars: vars(),
          timeoutMs: 500,
        });
        expect(res).toMatchObject({ ok: false, timedOut: true, error: 'The portal did not finish within 0.5s.' });
        await expect.poll(() => existsSync(seen), { timeout: 10_000 }).toBe(true);
        const profile = /--user-data-dir=(\S+)/.exec(readFileSync(seen, 'utf8'))?.[1];
        expect(profile).toMatch(/desk-run-/);
        await expect.poll(() => existsSync(started), { timeout: 10_000 }).toBe(true);
        const running = () => execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).includes(profile!);
        await expect.poll(running, { timeout: 20_000, interval: 200 }).toBe(false);
        // Once the browser has exited, nothing writes the profile again.
        await new Promise((r) => setTimeout(r, 1_000));
        expect(existsSync(profile!)).toBe(false);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }, 40_000);
  },
);

describe('profiles left behind', () => {
  it("removes a profile whose process is gone, and keeps a running process's", () => {
    // A process that has ended: its number is free (the exit has been waited for).
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    const alive = process.ppid;
    const dead = mkdtempSync(join(tmpdir(), `desk-run-${gone}-`));
    const live = mkdtempSync(join(tmpdir(), `desk-run-${alive}-`));
    const other = mkdtempSync(join(tmpdir(), 'desk-run-'));
    writeFileSync(join(dead, 'Cookies'), 'session=portal');
    try {
      sweepLeftovers();
      expect(existsSync(dead)).toBe(false);
      expect(existsSync(live)).toBe(true);
      expect(existsSync(other)).toBe(true);
    } finally {
      for (const dir of [dead, live, other]) rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the run's browser in its sandbox", () => {
  /** The flags a browser was started with, from a stand-in that notes them and says `said`. */
  const flagsOf = async (opts: { root: boolean; sandbox?: Sandbox; said?: string }) => {
    const dir = mkdtempSync(join(tmpdir(), 'desk-sandbox-'));
    try {
      const seen = join(dir, 'args');
      const file = join(dir, 'chromium');
      writeFileSync(file, `#!/bin/sh\necho "$@" > ${seen}\necho "${opts.said ?? 'not a browser'}" >&2\nexit 1\n`);
      chmodSync(file, 0o755);
      const res = await new ChromiumRunner({ executablePath: file, root: opts.root, sandbox: opts.sandbox }).run({
        steps: [{ goto: 'http://127.0.0.1:9/' }],
        vars: vars(),
        timeoutMs: 10_000,
      });
      return { flags: readFileSync(seen, 'utf8').trim().split(' '), res };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it('is kept in it unless Desk runs as root, where Chromium has none, or the setting turns it off', async () => {
    expect((await flagsOf({ root: false })).flags).not.toContain('--no-sandbox');
    expect((await flagsOf({ root: true })).flags).toContain('--no-sandbox');
    expect((await flagsOf({ root: false, sandbox: 'off' })).flags).toContain('--no-sandbox');
  });

  it('says how to go on when the machine gives the browser no sandbox', async () => {
    const { res } = await flagsOf({ root: false, said: '[FATAL:zygote_host_impl_linux.cc] No usable sandbox!' });
    expect(res).toMatchObject({ ok: false, unavailable: true, stepsDone: 0 });
    expect(res.error).toMatch(/could not start its sandbox on this machine/);
    expect(res.error).toContain('DESK_CHROMIUM_SANDBOX=off');
  });

  // Root may start a process as nobody, and nobody must be able to read this checkout.
  const asNobody = ['/usr/bin/setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'];
  const asAnotherUser =
    available &&
    process.getuid?.() === 0 &&
    existsSync(asNobody[0]!) &&
    spawnSync(asNobody[0]!, [...asNobody.slice(1), 'test', '-r', join(process.cwd(), 'node_modules/tsx/package.json')])
      .status === 0;
  if (available && !asAnotherUser)
    console.log('Not root, no setpriv, or a checkout nobody can read: skipping the sandboxed run as another user.');
  it.runIf(asAnotherUser)(
    'runs a playbook in the sandbox for a user that is not root',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'desk-sandboxed-'));
      chmodSync(dir, 0o777);
      try {
        const script = join(dir, 'run.ts');
        writeFileSync(
          script,
          `import { createServer } from 'node:http';
import { ChromiumRunner } from ${JSON.stringify(join(process.cwd(), 'src/adapters/chromium/runner.ts'))};
const site = createServer((_, res) => res.end('<!doctype html><title>Portal</title><p id="said">inside</p>'));
site.listen(0, '127.0.0.1', async () => {
  const port = site.address().port;
  const res = await new ChromiumRunner({ executablePath: ${JSON.stringify(CHROMIUM)} }).run({
    steps: [{ goto: 'http://127.0.0.1:' + port + '/' }, { read: '#said', as: 'said' }],
    vars: { work: {}, unit: {}, arrangement: {}, secret: {} },
    timeoutMs: 30_000,
  });
  console.log(JSON.stringify({ uid: process.getuid(), ok: res.ok, error: res.error, said: res.reads.said }));
  site.close();
});
`,
        );
        const out = execFileSync(asNobody[0]!, [...asNobody.slice(1), process.execPath, '--import', 'tsx', script], {
          encoding: 'utf8',
          env: { ...process.env, HOME: dir, TMPDIR: dir },
          timeout: 60_000,
        });
        expect(JSON.parse(out.trim().split('\n').at(-1)!)).toEqual({
          uid: 65534,
          ok: true,
          error: null,
          said: 'inside',
        });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    90_000,
  );
});
