// A tiny government-style portal on loopback for the playbook runner's tests:
// a login form, a VAT return form, and a submit that is accepted, rejected or never answered.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type PortalMode = 'accept' | 'reject' | 'hang';

export interface Portal {
  /** Base address, e.g. http://127.0.0.1:40123 (no trailing slash). */
  url: string;
  /** Every POST /return the portal received, field by field, in order. */
  submissions: Array<Record<string, string>>;
  /** Every POST /login the portal received (the password included: tests only). */
  logins: Array<Record<string, string>>;
  setMode(mode: PortalMode): void;
  /** Holds every sign-in's answer until the returned function is called. */
  holdLogins(): () => void;
  /** Sign-ins whose browser hung up while their answer was held. */
  abandonedLogins(): number;
  close(): Promise<void>;
}

export const PORTAL_USER = 'bakery';
export const PORTAL_PASSWORD = 's3cret';
const SESSION = 'portal_session';

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>
<body><header><p>Tax Portal</p></header><main><h1>${title}</h1>
${body}
</main></body></html>`;
}

function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

function loginPage(error?: string): string {
  return page(
    'Sign in',
    `${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/login">
  <label for="user">Username</label> <input id="user" name="user" autocomplete="username">
  <label for="pass">Password</label> <input id="pass" name="pass" type="password" autocomplete="current-password">
  <button type="submit">Sign in</button>
</form>`,
  );
}

const returnPage = page(
  'Submit a VAT return',
  `<form method="post" action="/return">
  <label for="period">Period end</label> <input id="period" name="period">
  <label for="scheme">Scheme</label>
  <select id="scheme" name="scheme"><option value="standard">Standard</option><option value="flat">Flat rate</option></select>
  <label><input id="confirm" name="confirm" type="checkbox" value="yes"> I confirm the figures are correct</label>
  <button id="submit-return" type="submit">Submit return</button>
</form>`,
);

function readBody(req: IncomingMessage): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')))));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, html: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...headers });
  res.end(html);
}

function hasSession(req: IncomingMessage, sessions: Set<string>): boolean {
  const cookies = (req.headers.cookie ?? '').split(';').map((c) => c.trim());
  return cookies.some((c) => c.startsWith(`${SESSION}=`) && sessions.has(c.slice(SESSION.length + 1)));
}

/** `port` 0 (the default) takes any free port; the demo business expects its portal on 8099. */
export async function startPortal(opts: { mode?: PortalMode; port?: number } = {}): Promise<Portal> {
  let mode: PortalMode = opts.mode ?? 'accept';
  const submissions: Array<Record<string, string>> = [];
  const logins: Array<Record<string, string>> = [];
  const sessions = new Set<string>();
  const sockets = new Set<Socket>();
  let nextReference = 123;
  let held: Promise<void> | null = null;
  let abandoned = 0;

  const server = createServer((req, res) => {
    void handle(req, res).catch(() => {
      if (!res.headersSent) send(res, 500, page('Error', '<p class="error" role="alert">Something went wrong</p>'));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://portal.test');
    const path = url.pathname;
    // Sends the browser on to wherever `to` says, as a portal's sign-in might.
    if (path === '/elsewhere') {
      res.writeHead(302, { location: url.searchParams.get('to') ?? '/' });
      res.end();
      return;
    }
    // A form that is there but cannot be used: its button disabled, its field hidden.
    if (path === '/closed')
      return send(
        res,
        200,
        page(
          'Closed',
          '<form><input id="ref" type="hidden" name="ref"><select id="period"><option value="q1">Q1</option></select><button id="go" disabled>Submit</button></form>',
        ),
      );
    // A portal that answers with a file to save, and one whose page is a very long text.
    if (path === '/download') {
      res.writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-disposition': 'attachment; filename="return.bin"',
      });
      res.end('not a page');
      return;
    }
    if (path === '/long') return send(res, 200, page('Long', `<p id="all">${'y'.repeat(100_000)}</p>`));
    // A page whose script, once it has loaded, never stops running; and an error page whose
    // message runs on and on.
    if (path === '/busy')
      return send(
        res,
        200,
        page(
          'Busy',
          '<p>Ready</p><script>addEventListener("load", () => setTimeout(() => { for (;;) {} }, 0))</script>',
        ),
      );
    // A page that asks before it goes on, and one whose link opens a new tab.
    if (path === '/asks')
      return send(
        res,
        200,
        page(
          'Asks',
          '<script>addEventListener("load", () => { if (confirm("Submit your return now?")) document.body.insertAdjacentHTML("beforeend", "<p>Return received</p>"); })</script><p>Ready</p>',
        ),
      );
    if (path === '/tab') return send(res, 200, page('Tab', '<a id="open" href="/long" target="_blank">Open</a>'));
    // A reference shown in a read-only field, and two paragraphs one selector matches.
    if (path === '/fields')
      return send(
        res,
        200,
        page(
          'Fields',
          '<input id="ref" value="REF-2041" readonly><textarea id="notes">Filed.</textarea><select id="period"><option>Q3</option><option selected>Q4</option></select><p class="line">One</p><p class="line">Two</p>',
        ),
      );
    if (path === '/broken-long')
      return send(res, 500, page('Broken', `<div role="alert">${'Error detail. '.repeat(20_000)}</div>`));
    // A page behind the web server's own sign-in, and a redirect that comes back to itself.
    if (path === '/basic') {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="portal"', 'content-type': 'text/html' });
      res.end('<p>Please sign in</p>');
      return;
    }
    if (path === '/loop') {
      res.writeHead(302, { location: '/loop' });
      res.end();
      return;
    }
    // A message that quotes the password after `n` other characters, as a careless portal might.
    if (path === '/wordy') {
      const n = Number(url.searchParams.get('n') ?? 0);
      return send(res, 200, page('Wordy', `<p class="error">${'x'.repeat(n)} ${PORTAL_PASSWORD} tail</p>`));
    }
    if (req.method === 'GET' && (path === '/' || path === '/login')) return send(res, 200, loginPage());
    if (req.method === 'POST' && path === '/login') {
      const form = await readBody(req);
      logins.push(form);
      if (held) {
        res.once('close', () => {
          if (!res.writableEnded) abandoned++;
        });
        await held;
        if (res.destroyed) return;
      }
      if (form.user === PORTAL_USER && form.pass === PORTAL_PASSWORD) {
        const token = `s${sessions.size + 1}-${Math.random().toString(36).slice(2)}`;
        sessions.add(token);
        res.writeHead(302, {
          location: '/return',
          'set-cookie': `${SESSION}=${token}; Path=/; HttpOnly; SameSite=Lax`,
        });
        res.end();
        return;
      }
      return send(res, 200, loginPage('Wrong username or password'));
    }
    if (path === '/return' && !hasSession(req, sessions)) {
      res.writeHead(302, { location: '/login' });
      res.end();
      return;
    }
    if (req.method === 'GET' && path === '/return') return send(res, 200, returnPage);
    if (req.method === 'POST' && path === '/return') {
      const form = await readBody(req);
      submissions.push(form);
      if (mode === 'hang') return; // never answer; the socket stays open until close()
      if (mode === 'reject') {
        const period = form.period ?? '';
        return send(
          res,
          200,
          page(
            'Submit a VAT return',
            `<p class="error" role="alert">The period ${escapeHtml(period)} is already filed</p><p><a href="/return">Back</a></p>`,
          ),
        );
      }
      const reference = `VAT-2026-${String(nextReference++).padStart(6, '0')}`;
      return send(
        res,
        200,
        page('Return received', `<p>Return received. Your reference is <span id="reference">${reference}</span>.</p>`),
      );
    }
    send(res, 404, page('Page not found', '<p class="error" role="alert">Page not found</p>'));
  }

  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    submissions,
    logins,
    setMode(m: PortalMode) {
      mode = m;
    },
    holdLogins() {
      let release!: () => void;
      held = new Promise<void>((r) => (release = r));
      return () => {
        held = null;
        release();
      };
    },
    abandonedLogins: () => abandoned,
    close() {
      return new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      });
    },
  };
}
