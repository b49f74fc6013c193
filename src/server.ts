import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { dbFlag, ownerLinkCommand, portFlag, publicOrigin, type Config } from './config.ts';
import { buildDeps } from './container.ts';
import type { Deps } from './domain/context.ts';
import { DEMO_SLUG, importDemoIfAbsent } from './domain/business/demo.ts';
import { LINK_MINUTES, signInUrl } from './domain/owner/link-url.ts';
import { createSignInLink } from './domain/owner/sign-in.ts';
import { listDesks } from './domain/desks/manage.ts';
import { buildApp } from './http/app.ts';
import { logColours, serverLogger } from './http/log-format.ts';
import { redact } from './store/db.ts';
import { startWatchScheduler } from './app/watches/scheduler.ts';
import { interruptRuns, runsUnderWay } from './domain/work/in-flight.ts';
import { letGoHeld } from './app/idempotency/claim.ts';
import { startWorkScheduler } from './app/work/scheduler.ts';
import { startMailScheduler } from './app/mail/scheduler.ts';
import { untilLeftRunningEnds } from './domain/work/in-flight.ts';

// The running service: opens the store (migrating it), seeds a demo desk on first start,
// listens, checks watched dates, lets each desk work its list and reads its mailbox on a schedule, and on SIGTERM
// or SIGINT drains: new requests are answered 503 while those in flight finish; at the drain
// limit (DESK_DRAIN_TIMEOUT) runs still going are recorded as interrupted and answered; then it
// stops listening and closes the database.

export interface Output {
  out(text: string): void;
}

export interface RunningServer {
  app: FastifyInstance;
  deps: Deps;
  url: string;
  close(): Promise<void>;
  /** Settles once the server has shut down; rejects when it gave up waiting for the database. */
  closed: Promise<void>;
}

/** `npx desk demo` as it must be typed to reach this server's database and port. */
export function demoTip(config: Readonly<Config>, port: number): string {
  return `Another key any time: npx desk demo${dbFlag(config)}${portFlag(port)}`;
}

async function firstStart(deps: Deps, out: Output, base: string, tip: string): Promise<string | null> {
  if ((await listDesks(deps.store.db)).length > 0) return null;
  let demo: Awaited<ReturnType<typeof importDemoIfAbsent>>;
  try {
    demo = await importDemoIfAbsent(deps.store.db, { now: deps.clock.now(), keyName: 'demo' });
  } catch (err) {
    // Another process started on the same new database at the same moment and made it first:
    // its log has the key, and this one serves beside it.
    if ((await listDesks(deps.store.db)).length > 0) return null;
    throw err;
  }
  // Another process made it between the look above and this one.
  if (!demo) return null;
  out.out(
    [
      `First start: created the demo desk "${demo.desk.name}" (${demo.desk.slug}).`,
      `Its key, shown once: ${demo.key.key}`,
      `Try: curl -s -H "Authorization: Bearer ${demo.key.key}" ${base}/me`,
      tip,
    ].join('\n'),
  );
  return demo.desk.id;
}

/** The demo desk's screen, beside its key: the link is made once the port is known. */
async function printSignInLink(deps: Deps, out: Output, deskId: string, port: number): Promise<void> {
  const { token } = await createSignInLink(deps.store.db, deskId, deps.clock.now());
  out.out(
    `Sign in to its screen (once, within ${LINK_MINUTES} minutes): ${signInUrl(publicOrigin(deps.config, port), token)}\nAnother link any time: ${ownerLinkCommand(deps.config, DEMO_SLUG, port)}`,
  );
}

export async function startServer(config: Readonly<Config>, out: Output): Promise<RunningServer> {
  // Before the store opens, so that an address it cannot listen on leaves no new database behind.
  await tryAddress(config);
  const deps = await buildDeps(config, { serving: true, say: (line) => out.out(line) });
  let app: FastifyInstance;
  let started: FastifyInstance | undefined;
  let draining = false;
  let demoDesk: string | null;
  const shown = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}/api/v1`;
  try {
    const terminal = process.stdout.isTTY === true;
    const log = serverLogger(config.logLevel, config.logFormat, terminal, undefined, logColours(terminal, process.env));
    app = await buildApp(deps, { logger: log.logger, requestLines: log.pretty, draining: () => draining });
    started = app;
    await app.listen({ host: config.host, port: config.port });
    // After listening, so that the tip names the port actually bound (--port 0 picks one).
    const bound = app.server.address();
    const boundPort = typeof bound === 'object' && bound ? bound.port : config.port;
    demoDesk = await firstStart(
      deps,
      out,
      shown.replace(`:${config.port}/`, `:${boundPort}/`),
      demoTip(config, boundPort),
    );
  } catch (err) {
    await started?.close();
    await deps.store.close();
    throw listenError(err, config);
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  if (demoDesk) await printSignInLink(deps, out, demoDesk, port);
  out.out(`Desk is listening on ${url}/api/v1 (database: ${redact(deps.store.location)}). Stop with Ctrl-C.`);
  const stopWatches = startWatchScheduler(deps, { log: app.log });
  let inFlight = 0;
  app.server.on('request', (_req, res) => {
    inFlight++;
    res.once('close', () => inFlight--);
  });
  const stopWork = startWorkScheduler(deps, { log: app.log });
  const stopMail = startMailScheduler(deps, { log: app.log });

  let resolveClosed!: () => void;
  let rejectClosed!: (err: Error) => void;
  const closed = new Promise<void>((resolve, reject) => {
    resolveClosed = resolve;
    rejectClosed = reject;
  });
  // Whoever awaits `closed` (desk serve) hears of a stop that gave up; no one else need.
  closed.catch(() => undefined);
  let closing: Promise<void> | null = null;
  const close = () => {
    closing ??= (async () => {
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
      // No new pass starts once stopping; one under way ends after its act in hand, while requests drain.
      const schedulers = Promise.all([stopWatches(), stopWork(), stopMail()]);
      await drain(
        app,
        deps,
        () => inFlight,
        (on) => (draining = on),
      );
      await app.close();
      const rest = (async () => {
        await schedulers;
        await untilLeftRunningEnds();
        await deps.store.close();
      })();
      // A database that has stopped answering holds a pass's statement, and the store's
      // connections, for ever: the stop waits as long as a send left going may take, no longer.
      const limit = deps.config.mailTimeoutMs + AFTER_LIMIT_MS;
      if (await settlesWithin(rest, limit)) {
        await rest;
        return resolveClosed();
      }
      const said = `Stopped without closing the database: it did not answer within ${Math.round(limit / 1000)} s of the server no longer listening. A pass or a run under way may not have recorded its end; the next start takes it up.`;
      app.log.error(said);
      rejectClosed(new Error(said));
    })();
    return closing;
  };
  const onSignal = () => {
    out.out('Stopping: finishing requests in flight...');
    void close().then(async () => {
      // A stop that gave up says so through `closed` (desk serve prints why), not "Stopped.".
      if (
        await closed.then(
          () => true,
          () => false,
        )
      )
        out.out('Stopped.');
      // A send or a browser cut off at the drain limit may still hold a socket open; the
      // process has nothing left to do, so it does not wait for them.
      setTimeout(() => process.exit(), 1000).unref();
    });
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  return { app, deps, url, close, closed };
}

/** Listens on the configured address and lets it go at once: refused in words a person can act on. */
async function tryAddress(config: Readonly<Config>): Promise<void> {
  const probe = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen({ host: config.host, port: config.port }, resolve);
    });
  } catch (err) {
    throw listenError(err, config);
  } finally {
    await new Promise((resolve) => probe.close(resolve));
  }
}

function listenError(err: unknown, config: Readonly<Config>): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE')
    return new Error(
      `Port ${config.port} on ${config.host} is already in use; choose another with --port or DESK_PORT.`,
    );
  if (code === 'ENOTFOUND' || code === 'EADDRNOTAVAIL' || code === 'EAI_AGAIN')
    return new Error(
      `Cannot listen on ${config.host}: it is not an address of this machine. Use --host 127.0.0.1 (this machine only) or 0.0.0.0 (every address), or DESK_HOST.`,
    );
  return err;
}

/** Whether `work` settles within `ms`; the timer does not hold the process open. */
function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    timer.unref();
    work
      .then(
        () => resolve(true),
        () => resolve(true),
      )
      .finally(() => clearTimeout(timer));
  });
}

const DRAIN_POLL_MS = 25;
/** After the drain limit, how long interrupted runs get to record themselves and answer. */
const AFTER_LIMIT_MS = 5_000;

/**
 * Turns new requests away (503) and waits for those in flight; at the drain limit ends the
 * runs still going as interrupted, and gives them a moment to be recorded and answered.
 */
async function drain(
  app: FastifyInstance,
  deps: Deps,
  inFlight: () => number,
  setDraining: (on: boolean) => void,
): Promise<void> {
  setDraining(true);
  const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
  // A run the desk's own pass started holds no request, and is ended at the limit all the same.
  const busy = () => inFlight() > 0 || runsUnderWay(deps.store.db) > 0;
  const until = async (deadline: number) => {
    while (busy() && Date.now() < deadline) await wait(DRAIN_POLL_MS);
  };
  await until(Date.now() + deps.config.drainTimeoutMs);
  if (!busy()) return;
  const n = interruptRuns(deps.store.db, 'server');
  if (n > 0) app.log.warn(`Drain limit reached: ${n} run(s) recorded as interrupted.`);
  await until(Date.now() + AFTER_LIMIT_MS);
  // Whatever is still open (a slow chat answer) is cut off rather than holding the stop, and
  // lets go of its Idempotency-Key: a retry after the restart does the work then (P-ops-3).
  app.server.closeAllConnections();
  const freed = await letGoHeld(deps.store);
  if (freed > 0) app.log.warn(`Drain limit reached: ${freed} request(s) cut off; their keys are free for a retry.`);
}
