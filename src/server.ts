import type { FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import { buildDeps } from './container.ts';
import type { Deps } from './domain/context.ts';
import { importDemo } from './domain/business/demo.ts';
import { listDesks } from './domain/desks/manage.ts';
import { buildApp } from './http/app.ts';
import { redact } from './store/db.ts';
import { startWatchScheduler } from './app/watches/scheduler.ts';

// The running service: opens the store (migrating it), seeds a demo desk on first start,
// listens, checks watched dates on a schedule, and on SIGTERM or SIGINT stops taking requests, lets those in flight finish, and
// closes the database.

export interface Output {
  out(text: string): void;
}

export interface RunningServer {
  app: FastifyInstance;
  deps: Deps;
  url: string;
  close(): Promise<void>;
  /** Settles once the server has shut down. */
  closed: Promise<void>;
}

async function firstStart(deps: Deps, out: Output, base: string): Promise<void> {
  if ((await listDesks(deps.store.db)).length > 0) return;
  const demo = await importDemo(deps.store.db, { now: deps.clock.now(), keyName: 'demo' });
  out.out(
    [
      `First start: created the demo desk "${demo.desk.name}" (${demo.desk.slug}).`,
      `Its key, shown once: ${demo.key.key}`,
      `Try: curl -s -H "Authorization: Bearer ${demo.key.key}" ${base}/me`,
      'Another key any time: npx desk demo',
    ].join('\n'),
  );
}

export async function startServer(config: Readonly<Config>, out: Output): Promise<RunningServer> {
  const deps = await buildDeps(config);
  let app: FastifyInstance;
  const shown = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}/api/v1`;
  try {
    await firstStart(deps, out, shown);
    app = await buildApp(deps, { logger: { level: config.logLevel } });
    await app.listen({ host: config.host, port: config.port });
  } catch (err) {
    await deps.store.close();
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'EADDRINUSE') throw new Error(`Port ${config.port} on ${config.host} is already in use; choose another with --port or DESK_PORT.`);
    throw err;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  out.out(`Desk is listening on ${url}/api/v1 (database: ${redact(deps.store.location)}). Stop with Ctrl-C.`);
  const stopWatches = startWatchScheduler(deps, { log: app.log });

  let resolveClosed!: () => void;
  const closed = new Promise<void>((r) => (resolveClosed = r));
  let closing: Promise<void> | null = null;
  const close = () => {
    closing ??= (async () => {
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
      await app.close();
      await stopWatches();
      await deps.store.close();
      resolveClosed();
    })();
    return closing;
  };
  const onSignal = () => {
    out.out('Stopping: finishing requests in flight...');
    void close();
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  return { app, deps, url, close, closed };
}
