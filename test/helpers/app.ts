import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { loadConfig, type Config } from '../../src/config.ts';
import { FixedClock } from '../../src/domain/clock.ts';
import type { Deps, Engine } from '../../src/domain/context.ts';
import { buildApp, type AppOptions } from '../../src/http/app.ts';
import { realEngine } from '../../src/container.ts';
import type { TestStore } from './db.ts';
import { checkResponse } from './openapi.ts';

export const TEST_NOW = '2026-11-22T10:00:00.000Z';

export interface Harness {
  app: FastifyInstance;
  deps: Deps;
  store: TestStore;
  clock: FixedClock;
  /** Sends a request with the key and checks the answer against /openapi.json. */
  call(
    method: string,
    url: string,
    opts?: { key?: string | null; body?: unknown; headers?: Record<string, string>; payload?: string | Buffer },
  ): Promise<LightMyRequestResponse & { json: () => any }>;
  close(): Promise<void>;
}

export async function harness(
  store: TestStore,
  opts: { config?: Partial<Config>; engine?: Partial<Engine>; now?: string; app?: AppOptions } = {},
): Promise<Harness> {
  const config = loadConfig(
    { DESK_DATABASE_URL: store.target },
    { rateLimitPerMinute: 100_000, refusedKeysPerMinute: 100_000, ...opts.config },
  );
  const clock = new FixedClock(new Date(opts.now ?? TEST_NOW));
  const deps: Deps = { store, clock, config, engine: { ...realEngine(config), ...opts.engine } };
  const app = await buildApp(deps, opts.app);
  await app.ready();
  const h: Harness = {
    app,
    deps,
    store,
    clock,
    async call(method, url, o = {}) {
      const headers: Record<string, string> = { ...(o.headers ?? {}) };
      if (o.key) headers.authorization = `Bearer ${o.key}`;
      const res = await app.inject({
        method: method as 'GET',
        url,
        headers,
        ...(o.payload !== undefined
          ? { payload: o.payload }
          : o.body !== undefined
            ? { payload: JSON.stringify(o.body), headers: { 'content-type': 'application/json', ...headers } }
            : {}),
      });
      await checkResponse(app, method, url, res);
      return res as LightMyRequestResponse & { json: () => any };
    },
    async close() {
      await app.close();
    },
  };
  return h;
}
