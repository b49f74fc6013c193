import { isUtf8 } from 'node:buffer';
import { createHmac, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import cookie from '@fastify/cookie';
import csrf from '@fastify/csrf-protection';
import helmet from '@fastify/helmet';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { deskContext, type DeskContext, type Deps } from '../domain/context.ts';
import { DeskError } from '../domain/errors.ts';
import { SecretKeyError } from '../store/cipher.ts';
import { storeTrouble } from '../store/trouble.ts';
import { PACKAGE_ROOT } from '../root.ts';
import {
  deskForSession,
  endSession,
  lookAtSignInLink,
  redeemSignInLink,
  SESSION_IDLE_DAYS,
} from '../domain/owner/sign-in.ts';
import { STATUS_OF } from '../http/errors.ts';
import { redactToken } from '../http/redact-url.ts';
import { type LimitStore, registerLimits } from '../http/limits.ts';
import { ownerLinkCommand } from '../config.ts';
import { settingOnce } from '../store/repositories/desks.ts';
import { csrfBinding, csrfToken as csrfFor, html, SESSION_COOKIE } from './reply.ts';
import { RETURN_COOKIE, RETURN_SECONDS, returnPath } from './return-to.ts';
import { boundaryOf, parseMultipart } from './multipart.ts';
import { readForm } from './form-body.ts';
import { ErrorPage, SignInPage, SignInQuestionPage } from './pages/misc.tsx';
import { businessScreenRoutes } from './routes/business.ts';
import { deskScreenRoutes } from './routes/desk.ts';
import { connectionScreenRoutes } from './routes/connections.ts';
import { keyScreenRoutes } from './routes/keys.ts';
import { permissionScreenRoutes } from './routes/permissions.ts';
import { ownScreenRoutes } from './routes/own.ts';
import { recordScreenRoutes } from './routes/record.ts';
import { setupScreenRoutes } from './routes/setup.ts';
import { workScreenRoutes } from './routes/work.ts';
import { workEditScreenRoutes } from './routes/work-edit.ts';
import { OWNER } from '../domain/vocab.ts';
import { saidToOwner } from './words.ts';
import { isBlank, unstorableIn } from '../domain/text.ts';

// The owner's screen at `/`: server-rendered pages over the same domain verbs as the API and
// the CLI. Everything here (cookies, CSRF, helmet's headers, form bodies, HTML errors) is
// scoped to this plugin, so the API under /api/v1 answers exactly as before.

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in owner's desk context on screen routes. */
    owner: DeskContext | null;
    /** A form sent as multipart whose bytes are not all UTF-8: the file in it is not text the desk reads. */
    notUtf8?: boolean;
  }
  interface FastifyContextConfig {
    /**
     * The fields of a form that carry a file's text, read by the route's own reader, which says
     * beside the form what is wrong with the file (not UTF-8, a NUL at a line and column).
     */
    takesFile?: readonly string[];
  }
}

export { SESSION_COOKIE };

const resolveModule = createRequire(import.meta.url).resolve;
const asset = (spec: string) => readFileSync(resolveModule(spec));
const ownAsset = (name: string) => readFileSync(path.join(PACKAGE_ROOT, 'src', 'screen', 'assets', name));
const ASSETS: Record<string, { type: string; body: Buffer }> = {
  'htmx.js': { type: 'text/javascript; charset=utf-8', body: asset('htmx.org/dist/htmx.min.js') },
  'pico.css': { type: 'text/css; charset=utf-8', body: asset('@picocss/pico/css/pico.min.css') },
  'screen.css': {
    type: 'text/css; charset=utf-8',
    body: ownAsset('screen.css'),
  },
  'screen.js': {
    type: 'text/javascript; charset=utf-8',
    body: ownAsset('screen.js'),
  },
};

/** The routes whose answers are the same for everybody, and public to caches. */
const PUBLIC_ROUTES = new Set(['/assets/:name', '/favicon.ico']);

const STORE_TROUBLE_TITLE = {
  busy: 'The desk is busy',
  full: "The desk's disk is full",
  readonly: 'The desk cannot write its database',
  unreachable: 'The desk cannot reach its database',
  used_up: 'The desk has no ids left',
} as const;

/** Where a form sent without a session goes, and what it says there. */
const NOT_DONE_PATH = '/sign-in?not-done';
const NOT_DONE =
  'You were signed out, so what you last sent was not done. Sign in again, then go back to it and send it again.';

const SIGN_IN_PROBLEM = {
  unknown: 'That sign-in link is not one the desk made. Ask for a new one.',
  used: 'That sign-in link has already been used; each link works once. Ask for a new one.',
  expired: 'That sign-in link has expired; links work for 15 minutes. Ask for a new one.',
  cancelled: 'That sign-in link was cancelled when every browser of the desk was signed out. Ask for a new one.',
} as const;

export function screen(deps: Deps, limits: LimitStore) {
  return async function screenPlugin(app: FastifyInstance): Promise<void> {
    // Pages and forms are not part of the API's contract.
    app.addHook('onRoute', (route) => {
      route.schema = { ...(route.schema ?? {}), hide: true };
    });

    const secret = await settingOnce(deps.store.db, 'screen_cookie_secret', randomBytes(32).toString('hex'));
    const secure = deps.config.publicUrl?.startsWith('https://') ?? false;
    await app.register(cookie, { secret });
    /** The owner's session in the browser, for the idle days the server keeps it. */
    const keepSession = (reply: FastifyReply, session: string) =>
      reply.setCookie(SESSION_COOKIE, session, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure,
        signed: true,
        maxAge: SESSION_IDLE_DAYS * 24 * 60 * 60,
      });
    await app.register(csrf, {
      sessionPlugin: '@fastify/cookie',
      cookieOpts: { path: '/', sameSite: 'strict', httpOnly: true, signed: true, secure },
      // A token holds its session's mark, so another session's token and secret cookie, planted
      // beside this session's cookie, are refused.
      getUserInfo: csrfBinding,
      csrfOpts: { hmacKey: createHmac('sha256', secret).update('csrf').digest() },
    });
    await app.register(helmet, {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          'default-src': ["'self'"],
          'script-src': ["'self'"],
          'style-src': ["'self'"],
          'img-src': ["'self'", 'data:'],
          'connect-src': ["'self'"],
          'font-src': ["'self'"],
          'object-src': ["'none'"],
          'base-uri': ["'none'"],
          'form-action': ["'self'"],
          'frame-ancestors': ["'none'"],
        },
      },
      strictTransportSecurity: secure,
    });

    app.removeAllContentTypeParsers();
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer' }, (_req, body, done) => {
      const fields = readForm(body as Buffer);
      if (!fields) return done(notWholeCharacters(), undefined);
      done(unstorableForm(fields), typedForm(fields));
    });
    // No limit of its own: each route's (the app's 1 MB, or the import's larger one) holds, so a
    // small form sent as multipart is not read up to the size of a business file.
    app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, (request, body, done) => {
      // A business file saved in another encoding would be read with U+FFFD in place of its
      // letters. The form that takes one is still read, so that its page refuses the file beside
      // the form, saying why (business.ts); any other form is refused as its urlencoded twin is.
      request.notUtf8 = !isUtf8(body as Buffer);
      if (request.notUtf8 && !request.routeOptions.config?.takesFile) return done(notWholeCharacters(), undefined);
      const boundary = boundaryOf(request.headers['content-type'] ?? '');
      const parsed = boundary ? parseMultipart(body as Buffer, boundary) : null;
      if (parsed) {
        const files = new Set(request.routeOptions.config?.takesFile);
        const others = Object.fromEntries(Object.entries(parsed).filter(([k]) => !files.has(k)));
        return done(unstorableForm(others), typedForm(parsed));
      }
      done(Object.assign(new Error('The form could not be read.'), { statusCode: 400 }), undefined);
    });

    app.decorateRequest('owner', null);
    app.addHook('onRequest', async (request, reply) => {
      // Whatever was committed before this request arrived is what it reads.
      await deps.store.fresh();
      const raw = request.cookies[SESSION_COOKIE];
      const token = raw ? reply.unsignCookie(raw) : null;
      if (!token?.valid || !token.value) return;
      const desk = await deskForSession(deps.store.db, token.value, deps.clock.now());
      if (!desk) return;
      request.owner = deskContext(deps, desk, { type: 'owner', name: OWNER });
      // Each use restarts the idle days in the browser too, or it would drop the session 30 days
      // after signing in however often the owner came. An answer a shared cache may keep (an
      // asset, the icon) carries no cookie, however its path was written.
      if (!PUBLIC_ROUTES.has(request.routeOptions.url ?? '')) keepSession(reply, token.value);
    });
    // Counted after the session is known: a signed-in desk has its own bucket, as a key does.
    await registerLimits(app, deps.config, limits, 'screen');
    // Every form but signing in and out is an owner's: one sent without a session is refused
    // before its body is read, so that nobody signed in to nothing can make the server read
    // uploads the size of a business file.
    const SIGNED_OUT_FORMS = new Set(['/sign-in', '/sign-out']);
    app.addHook('preParsing', async (request, _reply, payload) => {
      if (request.method === 'POST' && !request.owner && !SIGNED_OUT_FORMS.has(request.routeOptions.url ?? ''))
        throw new DeskError('unauthorized', 'Sign in first.');
      return payload;
    });
    app.addHook('preHandler', (request, reply, done) => {
      if (request.method !== 'POST') return done();
      app.csrfProtection(request, reply, done);
    });

    // A page a browser asked for while signed out is where the next sign-in lands; forms and
    // requests made by a script are not pages to land on.
    const toSignIn = (request: FastifyRequest, reply: FastifyReply) => {
      // A form sent after the session ended was not done, and the page that follows says so; a
      // part of a page asked for by the page's script (the chat box) has the whole page go.
      const form = request.method !== 'GET' && request.method !== 'HEAD';
      if (request.headers['hx-request'] === 'true')
        return reply
          .header('hx-redirect', form ? NOT_DONE_PATH : '/')
          .code(204)
          .send();
      if (form) return reply.code(303).redirect(NOT_DONE_PATH);
      const page =
        request.method === 'GET' &&
        /text\/html/.test(request.headers.accept ?? '') &&
        request.headers['hx-request'] !== 'true';
      const path = page ? returnPath(request.url) : null;
      if (path)
        reply.setCookie(RETURN_COOKIE, path, {
          path: '/',
          httpOnly: true,
          sameSite: 'lax',
          secure,
          signed: true,
          maxAge: RETURN_SECONDS,
        });
      return reply.code(303).redirect('/');
    };
    const returnOf = (request: FastifyRequest, reply: FastifyReply): string => {
      const raw = request.cookies[RETURN_COOKIE];
      if (raw === undefined) return '/';
      reply.clearCookie(RETURN_COOKIE, { path: '/' });
      const kept = reply.unsignCookie(raw);
      return (kept.valid && returnPath(kept.value)) || '/';
    };

    app.setErrorHandler((err: FastifyError, request, reply) => {
      const ctx = request.owner;
      const page = (status: number, title: string, message: string) =>
        html(
          reply,
          ErrorPage({ title, message, ...(ctx ? { desk: ctx.desk.name, csrf: csrfFor(reply) } : {}) }),
          status,
        );
      if (err instanceof DeskError) {
        if (err.code === 'unauthorized') return toSignIn(request, reply);
        const status = STATUS_OF[err.code];
        const title = status === 404 ? 'Not found' : status === 429 ? 'Too many requests' : 'That did not work';
        return page(status, title, saidToOwner(err.message));
      }
      if (err.code?.startsWith('FST_CSRF')) {
        return page(
          403,
          'Refused',
          "This form did not come from the desk's own page, or it is too old. Go back, reload the page and try again.",
        );
      }
      // A person who pasted or chose too much is told how much the form takes, to cut it to that.
      if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        const mb = Math.floor(request.routeOptions.bodyLimit / (1024 * 1024));
        return page(
          413,
          'Too large to send',
          `What this form sent is more than the desk takes from one form, ${mb} MB. Make it shorter and send it again.`,
        );
      }
      if (err.statusCode && err.statusCode < 500)
        return page(err.statusCode, 'That did not work', 'The request could not be read.');
      // The owner runs the desk: a key that does not open its secrets (a rotation this server
      // has not been restarted for) is theirs to mend, so the page says what the desk knows.
      if (err instanceof SecretKeyError) {
        request.log.error({ err }, `${request.method} ${redactToken(request.url)} failed`);
        return page(500, 'The desk cannot open its secrets', err.message);
      }
      const trouble = storeTrouble(err);
      if (trouble) {
        request.log[trouble.level]({ err }, trouble.log);
        reply.header('retry-after', '1');
        return page(503, STORE_TROUBLE_TITLE[trouble.kind], trouble.message);
      }
      request.log.error({ err }, `${request.method} ${redactToken(request.url)} failed`);
      return page(500, 'Something went wrong', 'Something went wrong at the desk end. Try again.');
    });

    // The page's own files are not counted: every page asks for them.
    app.get('/assets/:name', { config: { rateLimit: false } }, async (request, reply) => {
      const name = (request.params as { name: string }).name;
      // Own names only: `__proto__` or `toString` would find what every object has.
      const a = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
      if (!a) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
      return reply.type(a.type).header('cache-control', 'public, max-age=3600').send(a.body);
    });

    // Browsers ask for an icon on every page; there is none, and saying so quietly spares the
    // console a failed request each time.
    const noIcon = async (_request: FastifyRequest, reply: FastifyReply) =>
      reply.code(204).header('cache-control', 'public, max-age=86400').send();
    // HEAD answered by its own route: the one made from GET's gave a 204 a Content-Length.
    app.get('/favicon.ico', { config: { rateLimit: false }, exposeHeadRoute: false }, noIcon);
    app.head('/favicon.ico', { config: { rateLimit: false } }, noIcon);

    // The command that prints a new link for this server, on the port the request came in on.
    const linkCommand = (request: FastifyRequest): string =>
      ownerLinkCommand(deps.config, 'YOUR-DESK', request.socket.localPort, 'public');

    const signInWith = async (request: FastifyRequest, reply: FastifyReply, token: string) => {
      const r = await redeemSignInLink(deps.store.db, token, deps.clock.now());
      if (!r.ok)
        return html(reply, SignInPage({ problem: SIGN_IN_PROBLEM[r.reason], command: linkCommand(request) }), 401);
      // The new session replaces the one this browser held (on this desk or another), so that one
      // ends here rather than living on unseen for its idle days.
      const held = request.cookies[SESSION_COOKIE];
      const old = held ? reply.unsignCookie(held) : null;
      if (old?.valid && old.value) await endSession(deps.store.db, old.value);
      keepSession(reply, r.session);
      return reply.code(303).redirect(returnOf(request, reply));
    };

    app.get('/sign-in', async (request, reply) => {
      const query = request.query as { token?: unknown; 'not-done'?: unknown };
      const token = query.token;
      if (typeof token !== 'string' || token === '') {
        const problem = query['not-done'] !== undefined && !request.owner ? NOT_DONE : undefined;
        return html(reply, SignInPage({ problem, command: linkCommand(request) }), request.owner ? 200 : 401);
      }
      // Opening a link may not be the owner's own doing (a page that sends them to a link of
      // another desk's), and a chat program's preview of it opens it too: a link is asked about,
      // and kept unused until the owner agrees, unless this browser is signed in to its desk.
      const look = await lookAtSignInLink(deps.store.db, token, deps.clock.now());
      if (!look.ok)
        return html(reply, SignInPage({ problem: SIGN_IN_PROBLEM[look.reason], command: linkCommand(request) }), 401);
      const current = request.owner?.desk;
      if (current?.id === look.desk.id) return signInWith(request, reply, token);
      return html(reply, SignInQuestionPage({ desk: current, csrf: csrfFor(reply), to: look.desk, token }));
    });

    app.post('/sign-in', async (request, reply) => {
      const token = (request.body as { token?: unknown } | undefined)?.token;
      if (typeof token !== 'string' || token === '')
        return html(reply, SignInPage({ command: linkCommand(request) }), request.owner ? 200 : 401);
      return signInWith(request, reply, token);
    });

    app.post('/sign-out', async (request, reply) => {
      const raw = request.cookies[SESSION_COOKIE];
      const token = raw ? reply.unsignCookie(raw) : null;
      if (token?.valid && token.value) await endSession(deps.store.db, token.value);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return html(reply, SignInPage({ problem: 'You are signed out.', command: linkCommand(request) }));
    });

    await app.register(deskScreenRoutes, { linkCommand });
    await app.register(workScreenRoutes);
    await app.register(workEditScreenRoutes);
    await app.register(recordScreenRoutes);
    await app.register(permissionScreenRoutes);
    await app.register(ownScreenRoutes);
    await app.register(keyScreenRoutes);
    await app.register(businessScreenRoutes);
    await app.register(connectionScreenRoutes);
    await app.register(setupScreenRoutes);

    // An address no page has (a form's own address kept in the address bar and opened again, a
    // mistyped one) answers as a page, not with the API's envelope. The API's paths keep theirs.
    app.get('/*', async (request, reply) => {
      const path = request.url.split('?')[0]!;
      if (path === '/api' || path.startsWith('/api/')) return reply.callNotFound();
      // As it was typed: an address that was not valid URL text reaches here rewritten.
      throw new DeskError('not_found', `There is no page at ${request.originalUrl.split('?')[0]}.`);
    });
  };
}

/**
 * A field holding nothing a person can see (spaces, or zero-width characters such as U+200B and
 * U+FEFF pasted in with them) reads as empty, so each verb refuses it as it refuses an empty one
 * rather than keeping a name or a title that shows as nothing (P-screen-17).
 */
function asTyped(v: string): string {
  // A browser sends a text box's line breaks as CR LF; the desk stores them as LF, as the API
  // and the CLI send them, so a form saved as it was is text left as it was.
  return isBlank(v) ? '' : v.replace(/\r\n?/g, '\n');
}

function typedForm(fields: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, asTyped(v)]));
}

/**
 * A form holding text no database can store as sent (a NUL character pasted in) is refused
 * whole before any verb runs, as the API refuses such a body (P-bodies-1): PostgreSQL cannot
 * store it, and SQLite would keep it. It reads the fields as sent, before a field of nothing
 * but NULs could read as empty.
 */
function unstorableForm(fields: Record<string, string>): DeskError | null {
  for (const [k, v] of Object.entries(fields)) {
    const bad = unstorableIn(k) ?? unstorableIn(v);
    if (bad === 'nul')
      return new DeskError(
        'bad_request',
        'The form holds a NUL character, which the desk cannot store. Remove it and send the form again.',
      );
    if (bad) return notWholeCharacters();
  }
  return null;
}

function notWholeCharacters(): DeskError {
  return new DeskError(
    'bad_request',
    'The form holds text that is not whole characters. Type it again and send the form.',
  );
}
