import type { FastifyInstance, FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import { DeskError } from '../domain/errors.ts';
import { clientAddress } from './client-address.ts';
import { CountedStore } from './limit-store.ts';

// Request limits per minute. A verified key has a bucket of its own, named by the key's id (never
// by the secret text, so no secret is kept in memory and spelling the header differently buys
// nothing), and so has a desk's screen signed in. A request with no valid key or session counts
// against its client address, and a refused key against a much smaller bucket of that address,
// so keys cannot be guessed at speed. With DESK_REDIS_URL the buckets live in Redis and every
// server process shares them; without it, each process keeps its own.

declare module 'fastify' {
  interface FastifyRequest {
    /** Why the presented key was refused; answered once the request has been counted. */
    authError?: unknown;
    /** True when the request presented no key at all. */
    keyless?: boolean;
  }
}

/**
 * A key was presented and refused: the small bucket of its address. A key the store could not
 * look up (a database out of reach) was not refused, and its answer (503) says to try again soon.
 */
const refusedKey = (request: FastifyRequest) => request.authError instanceof DeskError && !request.keyless;

function bucketOf(request: FastifyRequest): string {
  if (refusedKey(request)) return `refused:${clientAddress(request.ip)}`;
  const actor = request.ctx?.actor;
  if (actor?.type === 'key') return `key:${request.ctx.desk.id}:${actor.keyId}`;
  if (request.owner) return `screen:${request.owner.desk.id}`;
  return `address:${clientAddress(request.ip)}`;
}

export type LimitStore = Redis | null;

/** Where the buckets live: the shared Redis when there is one, else each scope's own memory. */
export async function limitStore(app: FastifyInstance, config: Readonly<Config>): Promise<LimitStore> {
  if (!config.redisUrl) return null;
  // The Redis client loads only when there is a Redis to share the buckets through.
  const redis = new (await import('ioredis')).Redis(config.redisUrl, {
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    lazyConnect: false,
    // A count asked while Redis is away fails at once rather than waiting out the reconnects:
    // queued, every request waited seconds for a Redis that was not coming back.
    enableOfflineQueue: false,
  });
  // A Redis that cannot be reached must not take the desk down: requests go through unlimited
  // and the server log says why (skipOnError below), once an outage, not once a reconnect.
  let away = false;
  redis.on('error', (err) => {
    if (away) return;
    away = true;
    app.log.warn({ err }, 'rate-limit store unreachable; requests go through unlimited until it is back');
  });
  redis.on('ready', () => {
    if (!away) return;
    away = false;
    app.log.info('rate-limit store reachable again');
  });
  // The first connection is waited for (connectTimeout bounds it), so the first requests are
  // counted too when Redis is there.
  await new Promise<void>((resolve) => {
    redis.once('ready', () => resolve());
    redis.once('error', () => resolve());
  });
  app.addHook('onClose', async () => {
    redis.disconnect();
  });
  return redis;
}

/**
 * Limits for the routes the scope registers after this; the API's and the screen's, each door
 * counting apart (in Redis under a name of its own, as each scope's memory keeps its own).
 */
export async function registerLimits(
  api: FastifyInstance,
  config: Readonly<Config>,
  redis: LimitStore,
  door: 'api' | 'screen',
): Promise<void> {
  await api.register(rateLimit, {
    timeWindow: 60_000,
    max: (request) => (refusedKey(request) ? config.refusedKeysPerMinute : config.rateLimitPerMinute),
    keyGenerator: bucketOf,
    ...(redis ? { redis, nameSpace: `desk-rate:${door}:`, skipOnError: true } : { store: CountedStore }),
    errorResponseBuilder: (request, context) => {
      const seconds = Math.ceil(context.ttl / 1000);
      const who = refusedKey(request)
        ? 'refused keys from this address'
        : request.ctx
          ? 'requests for this key'
          : request.owner
            ? "requests from this desk's screen"
            : 'requests from this address without a key';
      return new DeskError('rate_limited', `Too many ${who}; try again in ${seconds} s.`, {
        retry_after_seconds: seconds,
      });
    },
  });
  // The refusal itself waits until the request has been counted against its bucket.
  api.addHook('preParsing', (request, _reply, payload, done) => {
    if (request.authError) return done(request.authError as Error);
    done(null, payload);
  });
}
