import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import swagger from '@fastify/swagger';
import rateLimit from '@fastify/rate-limit';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { deskContext, type DeskContext, type Deps } from '../domain/context.ts';
import { DeskError } from '../domain/errors.ts';
import { verifyKey } from '../domain/keys/verify.ts';
import { presentedKey } from './auth.ts';
import { sendError } from './errors.ts';
import { readJsonBodies } from './body.ts';
import { openapiOptions } from './openapi.ts';
import { SHARED_SCHEMAS } from './schemas.ts';
import { metaRoutes } from './routes/meta.ts';
import { workRoutes } from './routes/work/index.ts';
import { arrangementRoutes } from './routes/arrangements/index.ts';
import { deskRoutes } from './routes/desk.ts';
import { recordRoutes } from './routes/record.ts';
import { chatRoutes } from './routes/chat.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The desk context, set once the key is verified. */
    ctx: DeskContext;
  }
  interface FastifyContextConfig {
    /** Answers without a key. */
    public?: boolean;
  }
}

export interface AppOptions {
  logger?: FastifyServerOptions['logger'];
}

/** A key sent as `?token=` must not reach the logs with the URL it came in. */
export function redactToken(url: string): string {
  return url.replace(/([?&]token=)[^&#]*/gi, '$1[redacted]');
}

function withRedactedUrls(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger || typeof logger !== 'object') return logger;
  return {
    ...logger,
    serializers: {
      req: (req: { method: string; url: string; hostname?: string; ip?: string }) => ({ method: req.method, url: redactToken(req.url), host: req.hostname, remoteAddress: req.ip }),
    },
  } as FastifyServerOptions['logger'];
}

/** Builds the whole HTTP service without listening, so tests can inject or listen as they like. */
export async function buildApp(deps: Deps, opts: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: withRedactedUrls(opts.logger ?? false),
    bodyLimit: deps.config.bodyLimitBytes,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: false, useDefaults: true } },
    routerOptions: { ignoreTrailingSlash: true },
    // POST /work/{id}/run takes minutes and /chat up to four: no server-side limit may cut an
    // answer short. Each slow verb keeps its own limit (DESK_RUN_TIMEOUT, DESK_CHAT_TIMEOUT).
    connectionTimeout: 0,
    requestTimeout: 0,
    handlerTimeout: 0,
    // A path that is not valid URL text (`/work/%ff`) names nothing: 404 in the envelope,
    // like any other id that is not a row (D20), rather than Fastify's own 400 body.
    frameworkErrors: (err, request, reply) => {
      const e = err.code === 'FST_ERR_BAD_URL' ? new DeskError('not_found', 'Nothing here: the path is not valid URL text.') : err;
      sendError(e, request, reply);
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  readJsonBodies(app);

  app.setErrorHandler((err, request, reply) => sendError(err, request, reply));
  app.setNotFoundHandler((request, reply) => sendError(new DeskError('not_found', `No route ${request.method} ${request.url.split('?')[0]}.`), request, reply));
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addHook('preValidation', async (request) => {
    if (request.body === undefined && (request.method === 'POST' || request.method === 'PUT')) request.body = {};
  });

  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);
  await app.register(swagger, openapiOptions);

  await app.register(
    async (api) => {
      await api.register(rateLimit, {
        max: deps.config.rateLimitPerMinute,
        timeWindow: 60_000,
        keyGenerator: (request) => {
          const auth = request.headers.authorization;
          const token = (request.query as Record<string, unknown> | undefined)?.token;
          return typeof auth === 'string' ? auth : typeof token === 'string' ? token : request.ip;
        },
        errorResponseBuilder: (_request, context) =>
          new DeskError('rate_limited', `Too many requests for this key; try again in ${Math.ceil(context.ttl / 1000)} s.`, { retry_after_seconds: Math.ceil(context.ttl / 1000) }),
      });

      api.addHook('onRequest', async (request) => {
        if (request.routeOptions.config?.public) return;
        const { key, desk } = await verifyKey(deps.store.db, presentedKey(request), deps.clock.now().toISOString());
        request.ctx = deskContext(deps, desk, { type: 'key', keyId: key.id, keyPrefix: key.prefix, keyName: key.name });
      });

      await api.register(metaRoutes);
      await api.register(workRoutes);
      await api.register(arrangementRoutes);
      await api.register(deskRoutes);
      await api.register(recordRoutes);
      await api.register(chatRoutes);
    },
    { prefix: '/api/v1' },
  );

  return app;
}
